//! The GEMM library's workspaces: device memory cuBLAS (hipBLAS on ROCm) works in, which
//! PyTorch takes from its caching allocator, so `max_memory_allocated` counts it.
//!
//! PyTorch gives every cuBLAS handle its workspace per stream from the caching allocator and
//! keeps it for the life of the process (aten/src/ATen/cuda/CublasHandlePool.cpp @26a39059:
//! `setWorkspaceForHandle` → `getNewWorkspace` → `CUDACachingAllocator::get()->allocate`, held
//! in `cublas_handle_stream_to_workspace`). Handles are per thread (`DeviceThreadHandlePool`,
//! a thread-local `PoolWindow`), and a training step runs GEMMs on two threads on the same
//! stream: the forward and the optimizer on the Python thread, the backward (recomputed blocks
//! included) on the autograd engine's thread for the device. Two workspaces, then: one from the
//! first forward GEMM, one from the first backward GEMM.
//!
//! The size without `CUBLAS_WORKSPACE_CONFIG` (`parseChosenWorkspaceSize`, same file): 32 MiB
//! on Hopper and Blackwell (@26a39059: compute capability 9.0; a 2026 revision of the file,
//! "32MiB for Hopper and Blackwell": major 9, 10, 11 or 12), otherwise `:4096:2:16:8` (two
//! 4 MiB and eight 16 KiB pieces, 8,519,680 bytes); under ROCm 128 MiB on gfx94x/gfx95x
//! (MI300, MI325, MI350, MI355), otherwise 32 MiB. cuBLASLt's own workspace (1 MiB a handle by
//! default, used by GEMMs with a fused bias) and hipBLASLt's (76 MiB) are left out. Gaudi runs
//! no cuBLAS. The 2026 revision also stops caching the workspace by default
//! (`TORCH_CUBLAS_WORKSPACE_CACHE`, off on CUDA): cuBLAS then allocates its default workspace
//! outside the caching allocator, in device memory but not in `allocated`; every measured run
//! here predates it, so the term stays in `allocated`.

use crate::dataset::Gpu;

const MIB: f64 = 1048576.0;

/// One handle's workspace on `gpu`, bytes (with no GPU named, the size every NVIDIA GPU but
/// Hopper takes).
#[inline(never)]
pub(crate) fn blas_workspace(gpu: Option<&Gpu>) -> f64 {
    let default = 4096.0 * 1024.0 * 2.0 + 16.0 * 1024.0 * 8.0;
    let Some(g) = gpu else { return default };
    match g.vendor {
        "NVIDIA" if g.architecture.starts_with("Hopper") || g.architecture.starts_with("Blackwell") => 32.0 * MIB,
        "NVIDIA" => default,
        "AMD" if g.architecture.starts_with("CDNA 3") || g.architecture.starts_with("CDNA 4") => 128.0 * MIB,
        "AMD" => 32.0 * MIB,
        _ => 0.0,
    }
}

/// The step's two workspaces (the forward's thread and the autograd engine's).
pub fn step_workspaces(gpu: Option<&Gpu>) -> f64 {
    2.0 * blas_workspace(gpu)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::gpu;

    #[test]
    fn sizes_follow_the_gpu() {
        assert_eq!(blas_workspace(gpu("h100-sxm")), 33554432.0);
        assert_eq!(blas_workspace(gpu("h200")), 33554432.0);
        assert_eq!(blas_workspace(gpu("gh200")), 33554432.0);
        for id in ["b200", "rtx-5090", "gb300"] {
            assert_eq!(blas_workspace(gpu(id)), 33554432.0, "{id}");
        }
        for id in ["a100-80gb", "t4", "rtx-4090", "l4", "v100-32gb"] {
            assert_eq!(blas_workspace(gpu(id)), 8519680.0, "{id}");
        }
        assert_eq!(blas_workspace(gpu("mi300x")), 128.0 * MIB);
        assert_eq!(blas_workspace(gpu("mi250x")), 32.0 * MIB);
        assert_eq!(blas_workspace(gpu("gaudi3")), 0.0);
        assert_eq!(blas_workspace(None), 8519680.0);
        assert_eq!(step_workspaces(gpu("h100-sxm")), 64.0 * MIB);
    }
}
