//! Collective bandwidth: NVLink (or the bridge, or PCIe) inside an instance, the provider's
//! network between instances, and how NCCL spreads a collective over both.

use crate::dataset::{Fabric, Gpu};

/// Fraction of the link rate NCCL collectives reach (nccl-tests bus bandwidth is typically
/// 70–80 % of the one-way link rate on NVLink, PCIe and InfiniBand).
pub const LINK_EFFICIENCY: f64 = 0.75;

/// Communication overlapped with compute still slows it a little: NCCL kernels take SMs and
/// memory bandwidth from the matmuls.
pub const OVERLAP_PENALTY: f64 = 0.1;

/// One-way bus bandwidth per GPU inside one instance, bytes/s, for a ring over `group` GPUs.
pub fn intra_bandwidth(g: &Gpu, group: u32) -> f64 {
    let one_way = |bidir: f64| bidir / 2.0;
    let gb_s = match g.fabric {
        Fabric::Nvlink | Fabric::InfinityFabric | Fabric::Roce => one_way(g.fabric_gb_s),
        // A bridge joins pairs (or quads); a ring over more GPUs crosses PCIe.
        Fabric::Bridge if group <= g.fabric_group => one_way(g.fabric_gb_s),
        Fabric::Bridge | Fabric::Pcie => one_way(g.pcie_gb_s),
    };
    gb_s * 1e9 * LINK_EFFICIENCY
}

/// Bus bandwidth per GPU of a collective over a group with `per_node` members in each of
/// `nodes` instances; `internode_gb_s` is the provider's network per GPU, one way.
///
/// NCCL builds one ring (channel) per NIC and shifts each so that a different GPU of the node
/// makes the crossing: with `per_node` members on their own NICs the node's crossings run in
/// parallel, so the inter-node part of a ring moves at `per_node` × the per-GPU network rate
/// (nccl-tests on 8×H100 nodes with one 400 Gb/s NIC per GPU report all-reduce bus
/// bandwidth near the NVLink-bound single-node figure). A group with one member per node
/// (tensor parallelism filling the node) crosses on that member's NIC alone.
pub fn group_bandwidth(g: &Gpu, per_node: u32, nodes: u32, internode_gb_s: Option<f64>) -> f64 {
    let intra = intra_bandwidth(g, per_node.max(1));
    if nodes <= 1 {
        return intra;
    }
    let inter = internode_gb_s.unwrap_or(0.0).max(0.1) * 1e9 * LINK_EFFICIENCY * per_node.max(1) as f64;
    intra.min(inter)
}

/// Bytes each GPU sends in a ring all-reduce of `v` bytes over `n` GPUs (reduce-scatter and
/// all-gather are half of it each).
pub fn all_reduce_bytes(v: f64, n: f64) -> f64 {
    if n > 1.0 {
        2.0 * (n - 1.0) / n * v
    } else {
        0.0
    }
}

/// Communication not hidden behind `window` seconds of compute.
pub fn exposed(comm: f64, window: f64) -> f64 {
    (comm - window).max(0.0) + OVERLAP_PENALTY * comm.min(window)
}
