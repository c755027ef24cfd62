//! Closed-form ZeRO and DeepSpeed model-state formulas, reproduced exactly: test oracles for
//! the memory model's sharding, not part of the product.
//!
//! `zero_paper` is Rajbhandari et al. (arXiv:1910.02054) §5 / Table 1; `deepspeed` is
//! DeepSpeed's `estimate_zero{2,3}_model_states_mem_needs` at microsoft/DeepSpeed @38327e07
//! (`runtime/zero/stage_1_and_2.py`, `runtime/zero/stage3.py`). The memory model uses the
//! same bookkeeping (2Ψ 16-bit params, 2Ψ grads, KΨ optimizer) for ZeRO stages.

/// ZeRO stage as the paper names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroStage {
    Baseline,
    Os,
    OsG,
    OsGP,
}

/// Model-state bytes per device: Ψ params, K optimizer bytes/param, N_d data-parallel degree.
pub fn zero_paper(psi: f64, k: f64, nd: f64, stage: ZeroStage) -> f64 {
    match stage {
        ZeroStage::Baseline => (2.0 + 2.0 + k) * psi,
        ZeroStage::Os => 4.0 * psi + k * psi / nd,
        ZeroStage::OsG => 2.0 * psi + (2.0 + k) * psi / nd,
        ZeroStage::OsGP => (2.0 + 2.0 + k) * psi / nd,
    }
}

/// DeepSpeed's estimators (bytes). `p` total params, `l` largest module's params,
/// `gpus_per_node`, `nodes`. Returns (per-GPU, per-CPU-node).
pub mod deepspeed {
    /// `estimate_zero2_model_states_mem_needs`, current formula (since PR #5099, 2024-06).
    pub fn zero2(p: u64, gpus_per_node: u64, nodes: u64, cpu_offload: bool) -> (u64, u64) {
        let total_gpus = (gpus_per_node * nodes) as f64;
        let pf = p as f64;
        if cpu_offload {
            let gpu = 2 * p;
            let cpu = pf * (4.0 * total_gpus).max(16.0) * 1.5;
            (gpu, cpu as u64)
        } else {
            let gpu = 2 * p + (18.0 * pf / total_gpus) as u64;
            let cpu = pf * 4.0 * gpus_per_node as f64 * 1.5;
            (gpu, cpu as u64)
        }
    }

    /// The pre-2024-06 formula (4P + 16P/N) that memory.rst still prints.
    pub fn zero2_legacy(p: u64, total_gpus: u64) -> u64 {
        4 * p + (16.0 * p as f64 / total_gpus as f64) as u64
    }

    /// `estimate_zero3_model_states_mem_needs`.
    pub fn zero3(
        p: u64,
        l: u64,
        gpus_per_node: u64,
        nodes: u64,
        offload_params: bool,
        offload_opt: bool,
        zero_init: bool,
    ) -> (u64, u64) {
        let total_gpus = (gpus_per_node * nodes) as f64;
        let (pf, n, nn) = (p as f64, gpus_per_node as f64, nodes as f64);
        let largest_layer_memory = 4 * l;
        if offload_params && offload_opt {
            let gpu = largest_layer_memory;
            let cpu = if zero_init { pf * 18.0 * 1.5 / nn } else { pf * (4.0 * n).max(18.0 / nn) * 1.5 };
            (gpu, cpu as u64)
        } else if offload_opt {
            let gpu = largest_layer_memory + (2.0 * pf / total_gpus) as u64;
            let cpu = if zero_init { pf * 16.0 * 1.5 / nn } else { pf * (4.0 * n).max(16.0 / nn) * 1.5 };
            (gpu, cpu as u64)
        } else {
            let gpu = largest_layer_memory + (18.0 * pf / total_gpus) as u64;
            let cpu = if zero_init { l as f64 * 4.0 * n * 1.5 } else { pf * 4.0 * n * 1.5 };
            (gpu, cpu as u64)
        }
    }
}
