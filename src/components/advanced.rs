//! The Advanced disclosure: the method's finer settings, training, GPUs and sharding, and the
//! job, each control reading and writing one query key: a table of fields (fields.rs),
//! closed by default, its summary counting the settings a link changes.

use super::controls::Scale;
use super::fields::{
    field, galore, lora, only, qlora, section, slider, tower, tower_qlora, true16, Field, FieldGroup, Kind,
};
use super::settings::ranges;
use crate::state::use_state;
use leptos::prelude::*;

/// GaLore's projection rank: 8 to 4096 (its examples use 128 to 1024).
const GALORE_RANK: Scale = Scale::pow2(8.0, 4096.0, 9);
/// 1 (every block) to 8: torchtitan's `selective_ac_option` as a whole number.
const CKPT_EVERY: Scale = Scale::linear(1.0, 8.0, 7, true);

/// Every field of the disclosure, in the order shown.
const FIELDS: &[Field] = &[
    section("method-details", |s| s.sec_method_details),
    // Shows the framework profile's value until the person sets one (`shown_value`).
    only(slider("lora-dropout", "lora_dropout", |s| s.lora_dropout, |s| s.u_prob, ranges::LORA_DROPOUT), lora),
    only(field("targets", "targets", |s| s.targets, Kind::Targets), lora),
    only(field("quant", "quant", |s| s.quant, Kind::Choice(false)), qlora),
    only(field("dq", "dq", |s| s.double_quant, Kind::Check), qlora),
    field("expert-format", "expert_format", |s| s.expert_format, Kind::Choice(false)),
    only(field("tower", "tower", |s| s.tower, Kind::Choice(false)), tower),
    only(field("tower-quant", "tower_quant", |s| s.tower_quant, Kind::Switch), tower_qlora),
    section("training-section", |s| s.sec_training),
    field("precision", "precision", |s| s.precision, Kind::Choice(false)),
    only(field("autocast", "autocast", |s| s.autocast, Kind::Switch), true16),
    field("optim", "optim", |s| s.optimizer, Kind::Choice(false)),
    only(slider("galore-rank", "galore_rank", |s| s.galore_rank, |s| s.u_count, GALORE_RANK), galore),
    slider("ga", "ga", |s| s.ga, |s| s.u_steps, ranges::GA),
    field("ckpt", "ckpt", |s| s.ckpt, Kind::Choice(true)),
    slider("ckpt-every", "ckpt_every", |s| s.ckpt_every, |s| s.u_blocks, CKPT_EVERY),
    field("attn", "attn", |s| s.attn, Kind::Choice(true)),
    field("loss", "loss", |s| s.loss, Kind::Choice(true)),
    field("packing", "packing", |s| s.packing, Kind::Switch),
    field("compile", "compile", |s| s.compile, Kind::Switch),
    field("act-offload", "act_offload", |s| s.act_offload, Kind::Switch),
    field("set-to-none", "set_to_none", |s| s.set_to_none, Kind::Check),
    field("optim-in-bwd", "optim_in_bwd", |s| s.optim_in_bwd, Kind::Check),
    field("compute", "compute", |s| s.compute, Kind::Choice(false)),
    field("framework", "framework", |s| s.framework, Kind::Choice(false)),
    field("framework-desc", "framework", |s| s.framework, Kind::FrameworkHint),
    section("parallel-section", |s| s.sec_parallel),
    slider("tp", "tp", |s| s.tp, |s| s.u_gpus, ranges::DEGREE),
    field("sp", "sp", |s| s.sp, Kind::Check),
    slider("pp", "pp", |s| s.pp, |s| s.u_count, ranges::DEGREE),
    slider("cp", "cp", |s| s.cp, |s| s.u_gpus, ranges::DEGREE),
    field("shard", "shard", |s| s.shard, Kind::Choice(false)),
    field("offload", "offload", |s| s.offload, Kind::Choice(false)),
    field("state-dict", "state_dict", |s| s.state_dict, Kind::Choice(false)),
    section("job-section", |s| s.sec_job),
    slider("runs", "runs", |s| s.runs, |s| s.u_count, ranges::RUNS),
    field("pricing", "pricing", |s| s.pricing, Kind::Choice(false)),
    slider("ckpt-interval", "ckpt_interval_min", |s| s.ckpt_interval, |s| s.u_min, ranges::CKPT_MIN),
    field("currency", "currency", |s| s.currency, Kind::Choice(false)),
    field("needs", "need", |s| s.must_have, Kind::Needs),
    slider("startup", "startup_min", |s| s.startup, |s| s.u_min, ranges::STARTUP_MIN),
    slider("idle", "idle_min", |s| s.idle, |s| s.u_min, ranges::IDLE_MIN),
    slider("storage-days", "storage_days", |s| s.storage_days, |s| s.u_days, ranges::STORAGE_DAYS),
    slider("download", "download_gb", |s| s.download, |s| s.u_gb, ranges::DOWNLOAD_GB),
];

const _: () = assert!(FIELDS.len() <= super::fields::MAX_FIELDS);

/// Keys the page shows outside the Advanced disclosure: everything else a link sets is
/// counted in the disclosure's summary.
const IN_VIEW: &[&str] = &[
    "v",
    "model",
    "params",
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "head_dim",
    "ffn",
    "vocab",
    "tied",
    "experts",
    "experts_per_token",
    "norms",
    "qk_norm",
    "dense_layers",
    "dense_ffn",
    "shared_ffn",
    "q_rank",
    "kv_rank",
    "rope_dim",
    "v_dim",
    "vision_params",
    "gpu",
    "gpus",
    "nodes",
    "method",
    "rank",
    "bottleneck",
    "virtual_tokens",
    "train_layers",
    "batch",
    "seq",
    "images",
    "image_res",
    "tokens",
    "epochs",
];

/// Framework, precision, kernels, checkpointing, parallelism and cost settings, closed by
/// default; its summary says how many of them the query sets away from their defaults, and
/// it opens by itself when a link sets any.
#[component]
pub fn Advanced() -> impl IntoView {
    let st = use_state();
    let changed = crate::reactive::memo(move || {
        st.query.with(|q| {
            // Counted against the current version's defaults: a v=1 link's own defaults
            // (fp32 weights) differ from what a fresh page shows, so they count too.
            let current = tunefit_core::Query { format: tunefit_core::query::FORMAT_VERSION, ..q.clone() };
            current
                .to_query_string()
                .split('&')
                .filter_map(|kv| kv.split('=').next())
                .filter(|k| !k.is_empty() && !IN_VIEW.contains(k))
                .count()
        })
    });
    let open = changed.get_untracked() > 0;
    view! {
        <details class="advanced" data-testid="advanced" open=open>
            <summary data-testid="advanced-summary">{move || (st.s().advanced)(changed.get())}</summary>
            <FieldGroup fields=FIELDS />
        </details>
    }
}
