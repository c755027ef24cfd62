//! The state one export is written from, and the notices every framework shares. `Ctx` holds
//! the query (its `framework` replaced by the one exported to), the framework profile's
//! resolved settings (`Settings::resolve`), the architecture, its module naming and model id,
//! and the warnings collected so far. Writes no file itself.

use super::models::Naming;
use super::Notice;
use super::PLACEHOLDER;
use crate::arch::Architecture;
use crate::framework::Resolved;
use crate::query::{Checkpointing, Method, Precision, Query, ShardingStrategy};

pub(super) struct Ctx {
    pub(super) q: Query,
    pub(super) res: Resolved,
    pub(super) arch: Architecture,
    pub(super) preset: Option<&'static str>,
    pub(super) naming: Naming,
    pub(super) model: Option<&'static str>,
    pub(super) warnings: Vec<Notice>,
}

impl Ctx {
    pub(super) fn warn(&mut self, code: &str, message: impl Into<String>) {
        let message = message.into();
        if !self.warnings.iter().any(|w| w.code == code && w.message == message) {
            self.warnings.push(Notice { code: code.into(), message });
        }
    }
    pub(super) fn model(&self) -> &'static str {
        self.model.unwrap_or(PLACEHOLDER)
    }
    pub(super) fn fw(&self) -> &'static str {
        self.q.framework.as_str()
    }
    pub(super) fn lora_like(&self) -> bool {
        matches!(self.q.method, Method::Lora | Method::Qlora | Method::Dora)
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
        matches!(self.q.precision, Precision::Bf16Mixed | Precision::Bf16True)
    }
    pub(super) fn fp16(&self) -> bool {
        matches!(self.q.precision, Precision::Fp16Mixed | Precision::Fp16True)
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
        if self.q.tp > 1 {
            let msg = format!(
                "tp={}: tensor parallelism is not part of this export; {} trains data-parallel only here",
                self.q.tp,
                self.fw()
            );
            self.warn("export-tp", msg);
        }
        if matches!(self.res.ckpt, Checkpointing::Selective | Checkpointing::Op) {
            let msg = format!("ckpt={}: {} exposes whole-block activation checkpointing only; the export turns full checkpointing on, which saves more memory than estimated", self.res.ckpt, self.fw());
            self.warn("export-ckpt-selective", msg);
        }
        if self.q.ckpt_every > 1 && self.res.ckpt != Checkpointing::None {
            let msg = format!("ckpt_every={}: {} checkpoints every block; the export does, which saves more memory than estimated (torchtitan's selective_ac_option does every n-th)", self.q.ckpt_every, self.fw());
            self.warn("export-ckpt-every", msg);
        }
        if self.q.optim_in_bwd && self.q.framework != crate::query::Framework::Torchtune {
            let msg = format!("optim_in_bwd: {} steps the optimizer after backward; the export keeps every gradient until the step (more memory than estimated)", self.fw());
            self.warn("export-optim-in-bwd", msg);
        }
        if self.q.optim == crate::query::Optimizer::AdamWFp8Ao
            && matches!(
                self.q.framework,
                crate::query::Framework::Hf | crate::query::Framework::Axolotl | crate::query::Framework::LlamaFactory
            )
        {
            self.warn("export-optim-fp8", "optim=adamw-fp8-ao: Transformers has no name for torchao's fp8 AdamW; the export uses its 8-bit AdamW (adamw_torch_8bit), same memory");
        }
    }
}
