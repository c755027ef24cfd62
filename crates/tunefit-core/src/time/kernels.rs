//! One micro-step on one GPU, kernel by kernel: the linear layers' GEMMs at the GPU's
//! measured matmul ceiling (or its memory bandwidth, when the micro-step is too small to
//! reuse the weights), attention at the flash kernels' rate, the elementwise ops (norms, RoPE,
//! activations, residuals, the loss) at memory bandwidth, and the CPU that launches them.
//!
//! Efficiency is not one number per market class: it follows from the GPU's silicon (peak,
//! bandwidth), its vendor's matmul library (the measured ceiling below), the method (adapters
//! add many small kernels; QLoRA dequantizes every weight each use) and the tokens per
//! micro-step (a small one leaves the GPU waiting on memory or on the CPU).

use super::flops::{passes_executed, FlopShape};
use super::Layout;
use crate::dataset::Gpu;
use crate::framework::Resolved;
use crate::query::{Attention, Compute, Loss, Method, Query};

/// Fraction of the dense peak a large BF16 matmul reaches: the maximum achievable matmul
/// FLOPS (MAMF) measured by brute force over shapes, stas00/ml-engineering
/// `compute/accelerator/README.md` ("Maximum Achievable Matmul FLOPS comparison table"):
/// A100 SXM 267.9/312 (85.9 %), A100 PCIe 82.2 %, H100 SXM 792.1/989 (80.1 %), GH200 83.0 %,
/// MI250X 76.7 % (one GCD, ROCm 6.2), MI300X 781.9/1300 (60.1 %, ROCm 6.2).
/// Parts without a published measurement take their vendor's measured generation nearest
/// in design (NVIDIA: 0.80, the lower of the measured Hopper figures).
pub fn gemm_ceiling(g: &Gpu) -> f64 {
    let arch = g.architecture;
    match g.vendor {
        "AMD" if arch.contains("CDNA 3") => 0.60,
        "AMD" => 0.77,
        "NVIDIA" if arch == "Ampere" => 0.84,
        // Gaudi: Intel publishes no dense TFLOPS and no MAMF run exists; its matmul engines
        // are taken at the NVIDIA figure, and the published Gaudi runs (docs/accuracy.md)
        // show how far that holds.
        _ => 0.80,
    }
}

/// Fraction of the 16-bit dense peak that flash attention's forward + backward reaches on
/// causal sequences. FlashAttention-2 (Dao, 2023, arXiv:2307.08691, Fig. 6–7): 50–73 % of
/// peak forward and 40–60 % forward + backward on A100 (head dim 128); on H100 the same
/// kernel reaches ~35 % (FlashAttention-3, Shah et al. 2024, arXiv:2407.08608, Fig. 5–6: FA2
/// 284–338 TFLOPS forward). PyTorch's SDPA runs FA2 on NVIDIA; ROCm's CK kernels sit lower.
pub fn flash_efficiency(g: &Gpu) -> f64 {
    match (g.vendor, g.architecture) {
        ("NVIDIA", a) if a.starts_with("Hopper") || a.starts_with("Blackwell") => 0.35,
        ("NVIDIA", "Turing" | "Volta") => 0.30,
        ("NVIDIA", _) => 0.50,
        _ => 0.30,
    }
}

/// Fraction of the spec memory bandwidth that streaming kernels reach (device copy and
/// triad benchmarks: 80–92 % on HBM and GDDR parts).
pub const BANDWIDTH_EFFICIENCY: f64 = 0.8;

/// CPU time to issue one eager PyTorch op (Python, dispatcher, autograd bookkeeping, the
/// launch). The CUDA launch alone is ~5 µs; eager ops cost 5–20 µs of CPU each (PyTorch's
/// CUDA Graphs write-up, 2021: "the CPU overhead of each kernel launch is several
/// microseconds"). The GPU starves only when its kernels are shorter than this.
pub const CPU_S_PER_OP: f64 = 10e-6;

/// The work of one micro-step on one GPU, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MicroStep {
    pub gemm_s: f64,
    pub attn_s: f64,
    /// Norms, RoPE, activations, residual adds, casts, the loss: memory-bound.
    pub elementwise_s: f64,
    /// QLoRA: dequantizing each 4-bit weight before its matmul.
    pub dequant_s: f64,
    /// CPU time to issue every kernel of the micro-step.
    pub cpu_s: f64,
    /// GPU busy time: the sum of the above but the CPU.
    pub gpu_s: f64,
    /// max(gpu, cpu): kernels run asynchronously, so the slower side sets the pace.
    pub total_s: f64,
}

/// The peak the linear layers run at and whether the GPU lacks the requested format.
pub fn linear_peak(q: &Query, g: &Gpu) -> (&'static str, f64, bool) {
    let (name16, peak16, flagged16) = super::compute_peak(q.precision, g);
    let tf = |x: Option<f64>| x.unwrap_or(0.0) * 1e12;
    match q.compute {
        Compute::Native => (name16, peak16, flagged16),
        Compute::Fp8 | Compute::Fp8Block if g.fp8_native && g.fp8_tflops.is_some() => {
            (if q.compute == Compute::Fp8 { "fp8" } else { "fp8-block" }, tf(g.fp8_tflops), false)
        }
        Compute::Fp4 if g.fp4_native && g.fp4_tflops.is_some() => ("fp4", tf(g.fp4_tflops), false),
        // The GPU has no such tensor cores: the matmuls stay in 16 bits (flagged).
        _ => (name16, peak16, true),
    }
}

/// Bytes per element the elementwise ops move per token per block, forward only.
/// Counted from transformers' eager Llama block (modeling_llama.py): RMSNorm upcasts to fp32
/// and makes six passes (cast, pow, mean, rsqrt-mul, cast back, weight) ≈ 36 B per hidden
/// element, twice per block; RoPE's rotate_half/cat/mul/add ≈ 20 B per q and k element;
/// the attention output's transpose-contiguous 4 B per q element; two residual adds 6 B per
/// hidden element each; SiLU·up 10 B per MLP element. A fused or compiled block reads and
/// writes each chain once (Inductor, Liger, Unsloth's Triton kernels): 2 × 2 B per element
/// of each chain's input and output.
fn elementwise_fwd_bytes(s: &FlopShape, fused: bool) -> f64 {
    if fused {
        2.0 * 2.0 * (2.0 * s.hidden) + 2.0 * 2.0 * (s.attn_width + s.kv_width) + 3.0 * 2.0 * s.ffn_active
    } else {
        84.0 * s.hidden + 24.0 * s.attn_width + 20.0 * s.kv_width + 10.0 * s.ffn_active
    }
}

/// Eager ops per block in the forward pass (norms, RoPE, projections, attention, MLP,
/// residuals); autograd issues about two per forward op in the backward.
const OPS_PER_BLOCK_FWD: f64 = 40.0;

pub fn micro_step(q: &Query, r: &Resolved, s: &FlopShape, g: &Gpu, lay: &Layout) -> MicroStep {
    let tokens = q.batch as f64 * q.seq as f64 / lay.cp as f64;
    // Each GPU does 1/tp of every matmul and 1/pp of the blocks.
    let split = (lay.tp * lay.pp) as f64;
    let p = passes_executed(q, r, s);
    let (_, peak_lin, _) = linear_peak(q, g);
    let (_, peak16, _) = super::compute_peak(q.precision, g);
    let bw = g.mem_bandwidth_gb_s * 1e9 * BANDWIDTH_EFFICIENCY;
    let ceiling = gemm_ceiling(g)
        * match q.compute {
            // Block-scaled FP8 multiplies per-tile scales inside the GEMM main loop (DeepSeek-V3
            // report §3.3.2: partial sums promoted to FP32 every 128 elements), costing ~10 %.
            Compute::Fp8Block => 0.9,
            _ => 1.0,
        };
    let weight_bytes = match q.compute {
        Compute::Native => q.precision.compute_bytes(),
        Compute::Fp8 | Compute::Fp8Block => 1.0,
        Compute::Fp4 => 0.5,
    };
    // Roofline per GEMM: all linears of a micro-step share its token count, so the whole
    // set is bound by the same side.
    let gemm_compute = tokens * p.gemm_flops / split / (peak_lin * ceiling).max(1.0);
    let gemm_memory = p.weight_reads * weight_bytes / split / bw;
    let gemm_s = gemm_compute.max(gemm_memory);

    let attn_eff = flash_efficiency(g) * if r.attn == Attention::Eager { 0.5 } else { 1.0 };
    let attn_s = tokens * p.attn_flops / split / (peak16 * attn_eff).max(1.0);

    let fused = r.compile || r.profile.fused_kernels;
    let per_block = elementwise_fwd_bytes(s, fused);
    // Backward of each elementwise op reads its saved input and the incoming gradient and
    // writes the outgoing one: about twice the forward's traffic.
    let block_traffic = per_block * (p.forwards + 2.0 * p.backwards);
    let lora_traffic = if q.method.is_lora() {
        // Per adapted linear: the scaling multiply and the add into the base output
        // (10 B per output element forward), and dropout's mask and copy of the input when on.
        let targets = q.targets.iter().filter(|t| t.is_block_linear()).count() as f64;
        let out = (s.hidden + s.ffn_active) / 2.0;
        targets
            * (10.0 * out + if r.lora_dropout > 0.0 { 5.0 * s.hidden } else { 0.0 })
            * (p.forwards + 2.0 * p.backwards)
    } else {
        0.0
    };
    let fp8_traffic = if q.compute == Compute::Native {
        0.0
    } else {
        // torchao float8 (torchao/float8/float8_linear.py @7ca1bfb, matmul_with_hp_or_float8_args)
        // casts each linear's input, weight and output gradient per use: an amax pass (2 B
        // read) and a scaled cast (2 B read, 1 B written) per element.
        let ins = 5.0 * s.hidden + s.attn_width + s.ffn_active;
        let outs = s.attn_width + 2.0 * s.kv_width + s.hidden + 2.0 * s.ffn_active;
        5.0 * (ins * (p.forwards + p.backwards) + outs * p.backwards)
    };
    let layers = s.layers / lay.pp as f64;
    let blocks_bytes = tokens * layers * (block_traffic + lora_traffic + fp8_traffic) / lay.tp as f64;
    // The loss: full-vocabulary logits upcast to fp32, log-softmax and its backward
    // (≈ 24 B per logit); a fused loss (Liger/Unsloth/CCE) reads the logits once and writes
    // their gradient in place (≈ 6 B).
    let loss_bytes = if s.vocab > 0.0 {
        let per_logit = if r.profile.logits == crate::framework::LogitsImpl::Fused {
            6.0
        } else if r.loss == Loss::Chunked && r.compile {
            8.0
        } else {
            24.0
        };
        tokens * s.vocab * per_logit / (lay.tp * lay.pp) as f64
    } else {
        0.0
    };
    let weight_cast_bytes = if q.compute == Compute::Native { 0.0 } else { 5.0 * s.linear_active / split * p.forwards };
    let elementwise_s = (blocks_bytes + loss_bytes + weight_cast_bytes) / bw;

    let dequant_s = if q.method == Method::Qlora {
        // Each use of a frozen 4-bit weight first dequantizes it (read 0.5 B, write 2 B).
        let uses = p.forwards + 1.0;
        uses * s.linear_active * 2.5 / split / bw
    } else {
        0.0
    };

    // Kernel launches: the blocks' ops, two per adapted linear's forward op (A, B, scale,
    // add) in backward, QLoRA's dequantize before each frozen matmul, FP8's casts; Inductor
    // fuses the elementwise chains into about a third as many kernels.
    let adapters = match q.method {
        Method::Lora | Method::Qlora | Method::Dora => q.targets.iter().count() as f64,
        _ => 0.0,
    };
    let per_block_fwd = OPS_PER_BLOCK_FWD
        + 4.0 * adapters
        + if q.method == Method::Qlora { s.linears_per_layer } else { 0.0 }
        + if q.compute != Compute::Native { 6.0 * s.linears_per_layer } else { 0.0 }
        + if q.method == Method::Dora { 8.0 * adapters } else { 0.0 };
    let ops = layers * per_block_fwd * (p.forwards + 2.0 * p.backwards);
    let cpu_s = ops * CPU_S_PER_OP / if r.compile { 3.0 } else { 1.0 };

    let gpu_s = gemm_s + attn_s + elementwise_s + dequant_s;
    MicroStep { gemm_s, attn_s, elementwise_s, dequant_s, cpu_s, gpu_s, total_s: gpu_s.max(cpu_s) }
}
