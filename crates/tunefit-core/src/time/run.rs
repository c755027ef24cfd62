//! The run around the steps: start-up, evaluation and checkpoint saves.

use crate::query::{Query, ShardingStrategy};

/// Seconds to get from "rent it" to the first step: provisioning and the image pull
/// (`startup_min`), then the checkpoint's download at `download_gb_s`. Loading and QLoRA's
/// on-GPU quantization stream the same bytes at memory speed and are lost in the download.
pub fn startup_s(q: &Query, params: f64) -> f64 {
    // Hub checkpoints are stored in 16 bits (QLoRA quantizes them on load).
    q.startup_min * 60.0 + params * 2.0 / (q.download_gb_s * 1e9)
}

/// Bytes one training checkpoint writes: the trained weights as the model holds them (16-bit
/// under `*-true`, fp32 under mixed precision and fp32) and the optimizer states in their
/// dtype; DeepSpeed writes its 16-bit module and, beside the states, its fp32 master, whatever
/// the load dtype (memory/run.rs).
pub fn checkpoint_bytes(q: &Query, trainable: f64) -> f64 {
    let ds_master = q.deepspeed_16bit_engine();
    let true16 = q.precision.is_true16();
    let state_bytes = if true16 && !ds_master { 2.0 } else { 4.0 };
    let states = q.optim.state_bytes_per_param(state_bytes);
    let weights = if ds_master {
        2.0 + 4.0
    } else if true16 {
        2.0
    } else {
        4.0
    };
    trainable * (weights + states)
}

/// Saves in one run of `train_s` seconds: one every `ckpt_interval_min`, and the final one.
/// Returns (saves, seconds). Sharded runs write every rank's shard in parallel (FSDP
/// SHARDED_STATE_DICT, DeepSpeed per-rank files), so the nodes' writes add up; a replicated
/// run writes from rank 0 alone.
pub fn saves(q: &Query, trainable: f64, train_s: f64, nodes: u32) -> (u32, f64) {
    let n = (train_s / (q.ckpt_interval_min * 60.0)).floor().min(1e6) as u32 + 1;
    let writers = if q.shard == ShardingStrategy::None { 1.0 } else { nodes.max(1) as f64 };
    (n, n as f64 * checkpoint_bytes(q, trainable) / (q.save_gb_s * 1e9 * writers))
}

#[cfg(test)]
mod tests {
    use super::checkpoint_bytes;
    use crate::query::Query;

    #[test]
    fn a_checkpoint_holds_the_trained_weights_as_held_and_deepspeed_its_master_beside() {
        let bytes = |q: &str| checkpoint_bytes(&Query::parse(&format!("v=2&method=full&{q}")).unwrap(), 1e9) / 1e9;
        // fp32 weights and AdamW's two fp32 states; no separate master outside DeepSpeed.
        assert_eq!(bytes("precision=bf16-mixed"), 12.0);
        assert_eq!(bytes("precision=bf16-mixed&gpus=8&shard=fsdp"), 12.0);
        // DeepSpeed: its 16-bit module, the fp32 master and fp32 states, loaded in bf16 too.
        assert_eq!(bytes("precision=bf16-mixed&gpus=8&shard=zero3"), 14.0);
        assert_eq!(bytes("precision=bf16-true&gpus=8&shard=zero3"), 14.0);
        assert_eq!(bytes("precision=bf16-true"), 6.0);
    }
}
