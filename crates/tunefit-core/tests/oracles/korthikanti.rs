//! Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
//! Models"), Table 2: activation bytes per layer as printed (s, b, h, a, t), and the block
//! configuration they analyse. A test oracle for crate::activation, not part of the product.
use tunefit_core::activation::{Block, NormImpl};
use tunefit_core::query::{Attention, Targets};

/// The block Korthikanti et al. analyse: GPT, dropout, eager attention, 16-bit, all trainable.
pub fn gpt_block(tp: f64) -> Block {
    Block {
        act_bytes: 2.0,
        full: true,
        lora: Targets::NONE,
        rank: 0.0,
        lora_input_cast_bytes: 0.0,
        lora_dropout: false,
        quant_saves_input: false,
        norm: NormImpl::Fused,
        attn: Attention::Eager,
        eager_softmax_fp32: false,
        expand_kv: false,
        dropout: true,
        bottleneck: 0.0,
        compiled: false,
        tp,
        dora: false,
        fused_qkv_linear: false,
        masked: false,
        prefix_tokens: 0.0,
        native_gelu: true,
        autocast: false,
        residual_fp32: false,
    }
}

pub fn no_parallelism(s: f64, b: f64, h: f64, a: f64) -> f64 {
    s * b * h * (34.0 + 5.0 * a * s / h)
}
pub fn tensor_parallel(s: f64, b: f64, h: f64, a: f64, t: f64) -> f64 {
    s * b * h * (10.0 + 24.0 / t + 5.0 * a * s / (h * t))
}
pub fn tp_selective(s: f64, b: f64, h: f64, t: f64) -> f64 {
    s * b * h * (10.0 + 24.0 / t)
}
pub fn full_recompute(s: f64, b: f64, h: f64) -> f64 {
    2.0 * s * b * h
}
