//! The state one export is written from, and the notices every framework shares. `Ctx` holds
//! the query (its `framework` replaced by the one exported to), the framework profile's
//! resolved settings (`Settings::resolve`), the architecture, its module naming and model id,
//! and the notes collected so far. Writes no file itself.

use super::models::Naming;
use super::Note;
use super::PLACEHOLDER;
use crate::arch::Architecture;
use crate::framework::Resolved;
use crate::query::{Checkpointing, Framework, Loss, Optimizer, OptimizerImpl, Query, ShardingStrategy, TowerTraining};

pub(super) struct Ctx {
    pub(super) q: Query,
    pub(super) res: Resolved,
    pub(super) arch: Architecture,
    pub(super) preset: Option<&'static str>,
    pub(super) naming: Naming,
    pub(super) model: Option<&'static str>,
    pub(super) warnings: Vec<Note>,
}

impl Ctx {
    /// Adds `note` unless the export already has it (several paths reach the same note).
    pub(super) fn warn(&mut self, note: Note) {
        if !self.warnings.contains(&note) {
            self.warnings.push(note);
        }
    }
    /// PEFT `target_modules` for the query's targets, a fused module's note added.
    pub(super) fn peft_targets(&mut self) -> Vec<&'static str> {
        let (targets, note) = self.naming.peft_targets(&self.q);
        if let Some(n) = note {
            self.warn(n);
        }
        targets
    }
    pub(super) fn model(&self) -> &'static str {
        self.model.unwrap_or(PLACEHOLDER)
    }
    pub(super) fn lora_like(&self) -> bool {
        self.q.method.is_lora()
    }
    /// LoRA alpha. The query has no alpha key (alpha scales the update, not memory); alpha =
    /// 2·rank is the ratio the shipped configs use (torchtune llama3_1/8B_qlora_single_device:
    /// rank 8, alpha 16; litgpt's default lora_alpha 16 over lora_r 8; LLaMA-Factory's
    /// default lora_alpha = lora_rank * 2).
    pub(super) fn alpha(&self) -> u32 {
        self.q.rank.saturating_mul(2)
    }
    pub(super) fn dp(&self) -> u32 {
        (self.q.gpus / self.q.tp.max(1)).max(1)
    }
    pub(super) fn gpus_per_node(&self) -> u32 {
        self.q.gpus.div_ceil(self.q.nodes.max(1))
    }
    pub(super) fn bf16(&self) -> bool {
        self.q.precision.is_bf16()
    }
    pub(super) fn fp16(&self) -> bool {
        self.q.precision.is_fp16()
    }
    /// Whether a Trainer-based export turns on accelerate's mixed precision (the Trainer's
    /// `bf16`/`fp16` flags, accelerate's `mixed_precision`). Not for a 16-bit `*-true` run
    /// under FSDP: with mixed precision on, accelerate upcasts every trainable parameter that
    /// is not fp32 to fp32 before sharding ("FSDP upcast of low precision parameters",
    /// src/accelerate/accelerator.py @16cb6eb8 `prepare_model` for FSDP1, since v0.30.0;
    /// src/accelerate/utils/fsdp_utils.py @16cb6eb8 `fsdp2_prepare_model` for FSDP2, unless
    /// the model holds 4-bit weights), so the run would keep fp32 weights, gradients and
    /// optimizer states: a `*-mixed` run's memory, where the estimate counts 16-bit ones.
    /// Without it the model computes in the dtype it was loaded in, as `*-true` means. A
    /// `*-true` run sets it where the estimate counts autocast over the 16-bit model
    /// (`autocast`, off by default under FSDP), and always under DeepSpeed, whose config
    /// reads it for its own 16-bit engine.
    pub(super) fn trainer_amp(&self) -> bool {
        !self.q.precision.is_true16() || self.q.shard.is_deepspeed() || self.res.autocast_16bit
    }
    /// An `fp16-true` run sets the Trainer's fp16 flag, whose gradient scaler then unscales
    /// the trained weights' gradients: only fp32 adapters over a frozen base can
    /// (`framework::fp16_amp_trains`), where the estimate counts autocast; DeepSpeed's
    /// `"auto"` fp16 reads the flag for its own engine and scaler.
    pub(super) fn fp16_scaled(&self) -> bool {
        self.q.precision == crate::query::Precision::Fp16True
            && (self.q.shard.is_deepspeed()
                || self.res.autocast_16bit && crate::framework::fp16_amp_trains(&self.q, &self.res.profile))
    }
    pub(super) fn ckpt_on(&self) -> bool {
        self.res.ckpt != Checkpointing::None
    }
    pub(super) fn zero_stage(&self) -> Option<u32> {
        match self.q.shard {
            ShardingStrategy::Zero1 => Some(1),
            ShardingStrategy::Zero2 => Some(2),
            ShardingStrategy::Zero3 => Some(3),
            _ => None,
        }
    }
    /// Common cross-framework notices: tensor parallelism, selective checkpointing.
    pub(super) fn common_warnings(&mut self) {
        let framework = self.q.framework;
        if self.q.tp > 1 {
            self.warn(Note::Tp { tp: self.q.tp, framework });
        }
        if matches!(self.res.ckpt, Checkpointing::Selective | Checkpointing::Op) {
            self.warn(Note::CkptSelective { ckpt: self.res.ckpt, framework });
        }
        if self.q.ckpt_every > 1 && self.res.ckpt != Checkpointing::None {
            self.warn(Note::CkptEvery { every: self.q.ckpt_every, framework });
        }
        if self.q.optim_in_bwd && framework != Framework::Torchtune {
            self.warn(Note::OptimInBwd { framework });
        }
        // Every exported config saves sharded or through the host (Accelerate's
        // SHARDED_STATE_DICT, torchtune's and litgpt's own savers), never FSDP1's default.
        if self.q.gathers_state_dict_on_device() {
            self.warn(Note::StateDictDevice { framework });
        }
        if self.q.images > 0 || self.q.tower != TowerTraining::Frozen {
            self.warn(Note::Vision { images: self.q.images, tower: self.q.tower, framework });
        }
        let trainer = framework.runs_hf_trainer();
        if self.q.optim == Optimizer::AdamWFp8Ao && trainer {
            self.warn(Note::OptimFp8);
        }
        // transformers has no chunked loss: the Trainer-based exports turn on Liger's fused one.
        if trainer && self.res.loss == Loss::Chunked {
            self.warn(Note::LossChunked { framework });
        }
        // Packed samples: the Trainer-based exports restart position ids per sample
        // (DataCollatorWithFlattening, axolotl's and LLaMA-Factory's packing), from which
        // transformers builds a block-causal mask that SDPA cannot skip (masking_utils.py,
        // transformers 5.23.0: `find_packed_sequence_indices`, `allow_is_causal_skip = False`),
        // and with a mask its SDPA path repeats k and v (`use_gqa_in_sdpa`); the estimate's
        // packed samples are unpadded rows without one (the calibration probe's).
        if trainer && self.res.packing && self.res.attn == crate::query::Attention::Sdpa {
            self.warn(Note::PackingSdpa { framework });
        }
        // Activation offloading: torchtune's `enable_activation_offloading`, axolotl's
        // `activation_offloading` and Unsloth's checkpointing mode carry it, each only with
        // activation checkpointing on (torchtune's recipes and axolotl's validation raise
        // otherwise: axolotl utils/schemas/validation.py @067b021c8 "activation_offloading
        // requires gradient_checkpointing"); nothing else does.
        let offload_written =
            matches!(framework, Framework::Torchtune | Framework::Axolotl | Framework::Unsloth) && self.ckpt_on();
        if self.res.act_offload && !offload_written {
            self.warn(Note::ActOffload { framework });
        }
        // The Trainer's AdamW names are fused (`adamw_torch_fused`) or torch's default
        // (`adamw_torch`: foreach on CUDA); torchtune and litgpt write the implementation.
        if (trainer || framework == Framework::Unsloth)
            && self.q.optim == Optimizer::AdamW
            && self.res.optimizer_impl == OptimizerImpl::ForLoop
        {
            self.warn(Note::OptimImpl { optim_impl: self.res.optimizer_impl, framework });
        }
    }
}
