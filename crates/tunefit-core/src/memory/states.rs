//! Model states before parallelism: the weights in their storage formats, the gradients and
//! the optimizer states of one full replica.

use super::run::Run;
use super::trainable::{galore, quant_skipped, Galore};
use crate::diag::{Error, Warning};
use crate::query::{ExpertFormat, Method, Optimizer, Quant, ShardingStrategy, TargetModule, TowerTraining};

/// Storage bits per parameter of a quantized linear (QLoRA §3; LLM.int8 for int8).
pub fn quant_bits(quant: Quant, double_quant: bool, in_features: u64) -> f64 {
    match quant {
        // 4-bit codes + fp32 absmax per 64-block; DQ: 8-bit absmax + fp32 per 256 of them.
        Quant::Nf4 | Quant::Fp4 => {
            if double_quant {
                4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)
            } else {
                4.0 + 32.0 / 64.0
            }
        }
        // int8 codes + one fp32 scale per output row (bnb Int8Params SCB).
        Quant::Int8 => 8.0 + 32.0 / in_features.max(1) as f64,
    }
}

/// One replica's model states, bytes.
pub(super) struct States {
    pub weights_full: f64,
    pub grads_full: f64,
    pub opt_full: f64,
    /// The optimizer states live in bitsandbytes' paged (managed) memory.
    pub paged: bool,
    /// A quantized LM head's parameters (0 when the head stays 16-bit).
    pub head_params: f64,
    /// Autocast's 16-bit copies of fp32 matmul weights: the block linears' and the LM head's
    /// (all of them), and the head's alone.
    pub autocast_copies: f64,
    pub autocast_head: f64,
    pub state_bytes_base: f64,
    pub state_bytes_ad: f64,
    /// What GaLore projects, once for its states and its step temporaries.
    pub galore: Option<Galore>,
    /// The fp32 master copy inside `opt_full` (DeepSpeed's fp32 partitions under mixed
    /// precision; FSDP's shards are the fp32 parameters themselves, in the weights), which
    /// exists from initialisation, unlike the states the optimizer creates at its first step.
    pub master_full: f64,
}

impl States {
    /// The share of the torch-allocated optimizer bytes that is the fp32 master copy.
    pub fn master_share(&self) -> f64 {
        if self.opt_full > 0.0 {
            (self.master_full / self.opt_full).min(1.0)
        } else {
            0.0
        }
    }
}

pub(super) fn states(r: &Run, warn: &mut Vec<Warning>) -> Result<States, Error> {
    let (q, a, tr, res) = (r.q, &r.a, r.tr, r.res);
    let (frozen_bytes, adapter_bytes) = (r.frozen_bytes, r.adapter_bytes);
    let (base_train_bytes, zero_mixed, p_total) = (r.base_train_bytes, r.zero_mixed, r.p_total);
    // Frozen parameters, possibly quantized.
    let frozen = p_total - tr.base;
    let mut frozen_weight = frozen as f64 * frozen_bytes;
    // The LM head is quantized with the block linears where the framework replaces every
    // linear and the head is frozen.
    let head_quantized = q.method == Method::Qlora
        && res.profile.quantizes_lm_head
        && !a.tied
        && !a.encoder_only
        && !q.targets.contains(TargetModule::LmHead);
    let head_params = if head_quantized { (a.vocab * a.hidden) as f64 } else { 0.0 };
    if q.method == Method::Qlora {
        // Modules the checkpoint keeps in 16 bits (`quant_skip`) are not quantized.
        let lin = a.block_linear_params() as f64 + speech_linears(a) + head_params + tower_quantized(r)
            - quant_skipped(a, q)?;
        let bits = quant_bits(q.quant, q.double_quant, a.hidden);
        frozen_weight = (frozen as f64 - lin) * frozen_bytes + lin * bits / 8.0;
    }
    // Experts kept in MXFP4 (gpt-oss's checkpoint format): 4-bit values plus an 8-bit scale
    // per 32 (transformers integrations/mxfp4.py: `_blocks` uint8 pairs, `_scales` uint8).
    // The routed experts' weight matrices (gate_up_proj [E, h, 2f], down_proj [E, f, h]);
    // their biases stay 16-bit.
    let mxfp4_experts = if q.expert_format == ExpertFormat::Mxfp4 && a.experts > 1 {
        let mats = if a.mlp == crate::arch::MlpKind::Gated { 3.0 } else { 2.0 };
        a.moe_layers() as f64 * a.experts as f64 * mats * a.hidden as f64 * a.ffn as f64
    } else {
        0.0
    };
    if mxfp4_experts > 0.0 {
        let was =
            if q.method == Method::Qlora { quant_bits(q.quant, q.double_quant, a.hidden) / 8.0 } else { frozen_bytes };
        frozen_weight -= mxfp4_experts * (was - 4.25 / 8.0);
    }
    let adapter_weight = tr.adapter as f64 * adapter_bytes;
    let (base_w, base_g, base_master) = if zero_mixed && q.shard == ShardingStrategy::Fsdp {
        // FSDP's sharded parameters are the fp32 ones the model was loaded in, and each
        // reduce-scattered 16-bit gradient is cast back to their dtype (FSDP2 `foreach_reduce`:
        // `_to_dtype_if_needed(reduce_output, orig_dtype)`, torch/distributed/fsdp/_fully_shard/
        // _fsdp_collectives.py @d0f2af8b; FSDP1 `_cast_grad_to_param_dtype`): 4 bytes each, no
        // separate master. The 16-bit copies it computes with are gathered unit by unit
        // (parallel.rs).
        (tr.base as f64 * 4.0, tr.base as f64 * 4.0, 0.0)
    } else if zero_mixed {
        (tr.base as f64 * 2.0, tr.base as f64 * 2.0, tr.base as f64 * 4.0)
    } else {
        (tr.base as f64 * base_train_bytes, tr.base as f64 * base_train_bytes, 0.0)
    };
    // Autocast's 16-bit copies of fp32 trainable weights, saved by each matmul for backward.
    // Autocast casts every fp32 matmul weight (linears and the LM head; embeddings run in
    // fp32) to 16 bits per forward; each matmul whose input needs a gradient keeps its copy.
    // Quantized linears are dequantized by their own kernel instead.
    let matmul_params = {
        let m = a.modules();
        // (Whisper's encoder's copies are its pass's: memory/speech.rs.)
        let lin = a.block_linear_params() as f64;
        let head = if a.encoder_only { 0.0 } else { (a.vocab * a.hidden) as f64 };
        let quantized = if q.method == Method::Qlora { lin + head_params } else { 0.0 };
        // MXFP4 experts are dequantized by their own kernel, never cast by autocast.
        let mx = if q.method != Method::Qlora { mxfp4_experts } else { 0.0 };
        let _ = m;
        lin - quantized - mx + head
    };
    // None where the weights a matmul reads are 16-bit already: DeepSpeed runs no autocast, and
    // FSDP's mixed precision computes with 16-bit copies (`Run::fsdp_computes_16bit`; not
    // Lightning's, whose units compute in fp32 under autocast).
    let autocast_copies = if r.autocast && !r.fsdp_computes_16bit() { matmul_params * 2.0 } else { 0.0 };
    let autocast_head = if autocast_copies > 0.0 && !a.encoder_only && !head_quantized {
        (a.vocab * a.hidden) as f64 * 2.0
    } else {
        0.0
    };
    // PEFT trains a module it cannot adapt (the token table, the head, an image classifier) as
    // `modules_to_save`: `ModulesToSaveWrapper.update` deep-copies it and keeps the original,
    // frozen, beside the trained copy (peft 0.21.2 utils/other.py; a tied head shares the
    // table's copy), so those weights are held twice.
    let originals =
        if q.method.is_lora() && q.framework.uses_transformers() { tr.base as f64 * frozen_bytes } else { 0.0 };
    let weights_full = frozen_weight + adapter_weight + base_w + originals;
    let grads_full = base_g + tr.adapter as f64 * adapter_bytes;
    // Optimizer states.
    // Optimizer states take the dtype of the parameter they follow.
    // ZeRO's optimizer steps its fp32 master partition: its states are fp32 as well, also for a
    // model DeepSpeed holds in 16 bits from the load (`*-true`).
    let state_bytes_base = if zero_mixed { 4.0 } else { r.base_train_bytes };
    let state_bytes_ad = adapter_bytes;
    let states =
        |per: f64| tr.base as f64 * per * state_bytes_base / 4.0 + tr.adapter as f64 * per * state_bytes_ad / 4.0;
    // What GaLore projects, once for its states and its step temporaries.
    let galore = (q.optim == Optimizer::GaloreAdamW).then(|| galore(a, q, &tr));
    let (mut opt_full, paged) = match q.optim {
        Optimizer::AdamW => (states(8.0), false),
        Optimizer::PagedAdamW => (states(8.0), true),
        // bnb 8-bit blockwise, and torchao's 8-bit and fp8 AdamW
        // (torchao/optim/subclass_{8bit,fp8}.py): 1 B per state + one fp32 scale per
        // 256-element block; torchao's 4-bit (subclass_4bit.py): 4 bits + one per 128.
        Optimizer::AdamW8bit | Optimizer::PagedAdamW8bit | Optimizer::AdamW8bitAo | Optimizer::AdamWFp8Ao => {
            (tr.total as f64 * 2.0 * (1.0 + 4.0 / 256.0), q.optim == Optimizer::PagedAdamW8bit)
        }
        Optimizer::AdamW4bitAo => (tr.total as f64 * 2.0 * (0.5 + 4.0 / 128.0), false),
        // GaLore (galore_torch/galore_projector.py @2cc66f88): an m × n block linear keeps
        // exp_avg and exp_avg_sq of max(m, n) × r and a projector of r × min(m, n), in the
        // gradient's dtype; everything else (embeddings, head, norms) and adapters keep AdamW's.
        Optimizer::GaloreAdamW => {
            let (projected_states, projected_params) =
                galore.as_ref().map_or((0.0, 0.0), |g| (g.projected_states, g.projected_params));
            (
                projected_states * state_bytes_base
                    + (tr.base as f64 - projected_params).max(0.0) * 2.0 * state_bytes_base
                    + tr.adapter as f64 * 2.0 * state_bytes_ad,
                false,
            )
        }
        // Factored second moment (row and column means), no first moment (HF default beta1=None).
        Optimizer::Adafactor => (tr.adafactor_elems as f64 * 4.0, false),
        Optimizer::Sgd => (0.0, false),
        Optimizer::SgdMomentum | Optimizer::Lion => (states(4.0), false),
    };
    opt_full += base_master;
    if paged {
        warn.push(Warning::PagedOptimizer);
    }
    Ok(States {
        master_full: base_master,
        weights_full,
        grads_full,
        opt_full,
        paged,
        head_params,
        autocast_copies,
        autocast_head,
        state_bytes_base,
        state_bytes_ad,
        galore,
    })
}

/// Whisper's encoder's block linears: quantized by an 8-bit or 4-bit load like the decoder's
/// (its convolutions are not `nn.Linear`s).
fn speech_linears(a: &crate::arch::Architecture) -> f64 {
    a.layout.speech.map_or(0.0, |sp| sp.linear_params(a.hidden, a.ffn) as f64)
}

/// Parameters of a multimodal checkpoint's vision tower that a 4-bit load stores quantized:
/// its blocks' linears and the projector's, unless the framework keeps them in 16 bits
/// (`Resolved::tower_quant`) or the tower trains in full.
pub(super) fn tower_quantized(r: &Run) -> f64 {
    let q = r.q;
    match r.a.layout.described_tower() {
        Some(tw) if q.method == Method::Qlora && r.res.tower_quant && q.tower != TowerTraining::Full => {
            (tw.linear_params() + tw.projector_linears).min(r.a.layout.vision_params) as f64
        }
        _ => 0.0,
    }
}
