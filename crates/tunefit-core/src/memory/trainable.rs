//! What trains: exact trainable parameter counts per method, the modules a pre-quantized
//! checkpoint keeps in 16 bits, and what GaLore projects.

use crate::arch::Architecture;
use crate::diag::{Error, Refusal};
use crate::query::{Method, Query, TargetModule, TowerTraining};

/// Trainable parameter counts of a method.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Trainable {
    /// All trainable parameters.
    pub total: u64,
    /// Of which adapter parameters (LoRA/DoRA/bottleneck/prefix/prompt): stored in the adapter dtype.
    pub adapter: u64,
    /// Of which base-model parameters trained in full (full, freeze, embed/lm_head targets).
    pub base: u64,
    /// Adafactor's factored second moment: Σ(rows + cols) over trainable matrices + vectors.
    pub adafactor_elems: u64,
    /// Largest single trainable tensor (step temporaries of per-parameter optimizers).
    pub largest_tensor: u64,
}

/// Exact trainable counts (GQA-aware LoRA: r·(in + out) per adapted linear).
pub fn trainable(a: &Architecture, q: &Query) -> Result<Trainable, Error> {
    let m = a.modules();
    let l = a.layers;
    let mut t = Trainable::default();
    match q.method {
        Method::Full => {
            // A multimodal checkpoint's vision tower stays frozen; SigLIP's pooling head,
            // which the classifier's forward never calls, gets no gradient.
            t.base = a.text_params() - a.layout.image.map_or(0, |img| img.pool_head_params(a.hidden, a.ffn));
            // Factored second moment: each block matrix (rows + cols), vectors in full.
            let mut fac = 0u64;
            for tm in TargetModule::LINEAR {
                if let Some(s) = a.linear(tm) {
                    fac += s.count * (s.input + s.output);
                }
            }
            let vectors = m.norms + (m.attention + m.mlp).saturating_sub(a.block_linear_params() / l.max(1));
            t.adafactor_elems =
                l * (fac + vectors) + (a.vocab + a.hidden) * if a.tied || a.encoder_only { 1 } else { 2 } + a.hidden;
            t.largest_tensor = m.largest_module;
            if let Some(sp) = a.layout.speech {
                // Whisper's encoder trains too, all but its sinusoidal positions
                // (`embed_positions.requires_grad_(False)`); a decoder block's second
                // attention (its cross-attention) and the encoder's blocks are factored alike.
                let (h, f) = (a.hidden, a.ffn);
                t.base += a.speech_encoder_params() - sp.positions() * h;
                let attention = 4 * (h + h);
                t.adafactor_elems += (l + sp.layers) * attention
                    + sp.layers * (2 * (h + f) + 4 * h + f + 4 * h)
                    + sp.mels * 3
                    + h * 3
                    + 4 * h;
            }
        }
        Method::Freeze => {
            if q.train_layers as u64 > l {
                return Err(Error::Refused(Refusal::TrainLayersOverLayers { train_layers: q.train_layers, layers: l }));
            }
            if q.train_layers == 0 && a.classifier_params() == 0 {
                return Err(Error::Refused(Refusal::FreezeTrainsNothing));
            }
            // An image classifier's new head trains with the last blocks; SAM's mask decoder
            // with its last blocks and their relative positions (train_layers=0: the decoder
            // alone, the fine-tuning notebook's recipe).
            t.base = q.train_layers as u64 * a.layer_params() + a.classifier_params();
            if let Some(img) = a.layout.image {
                if let Some(sam) = img.sam {
                    t.base += sam.top_rel_params(q.train_layers as u64, l, a.head_dim, img.side / img.patch);
                }
            }
            let mut fac = 0u64;
            for tm in TargetModule::LINEAR {
                if let Some(s) = a.linear(tm) {
                    fac += s.count * (s.input + s.output);
                }
            }
            t.adafactor_elems = q.train_layers as u64 * (fac + m.norms);
            t.largest_tensor = a.hidden * a.ffn.max(a.q_dim());
        }
        Method::Lora | Method::Qlora | Method::Dora => adapters(a, q, &mut t)?,
        Method::Adapter | Method::Prefix | Method::Prompt if a.layout.image.is_some() => {
            return Err(Error::Refused(Refusal::ImageEncoderMethod { method: q.method }));
        }
        Method::Adapter => {
            if q.bottleneck as u64 > a.hidden {
                return Err(Error::Refused(Refusal::BottleneckOverHidden {
                    bottleneck: q.bottleneck,
                    hidden: a.hidden,
                }));
            }
            // Houlsby et al. 2019: two adapters per block (after attention and after the
            // MLP), each down (h·m + m) and up (m·h + h) with biases.
            let b = q.bottleneck as u64;
            t.adapter = l * 2 * (2 * a.hidden * b + b + a.hidden);
            t.adafactor_elems = l * 2 * (2 * (a.hidden + b) + b + a.hidden);
            t.largest_tensor = a.hidden * b;
        }
        Method::Prefix => {
            // PEFT prefix tuning without projection: one embedding of
            // virtual_tokens × (layers · 2 · kv_dim) (a key and a value per layer).
            t.adapter = q.virtual_tokens as u64 * l * 2 * a.kv_dim();
            t.adafactor_elems = q.virtual_tokens as u64 + l * 2 * a.kv_dim();
            t.largest_tensor = t.adapter;
        }
        Method::Prompt => {
            t.adapter = q.virtual_tokens as u64 * a.hidden;
            t.adafactor_elems = q.virtual_tokens as u64 + a.hidden;
            t.largest_tensor = t.adapter;
        }
    }
    tower(a, q, &mut t)?;
    t.total = t.adapter + t.base;
    Ok(t)
}

/// A multimodal checkpoint's vision tower trained beside the method (`tower`): LoRA on its
/// blocks' linears at `rank` (Unsloth's `finetune_vision_layers`), or the whole tower and its
/// projector (LLaMA-Factory's `freeze_vision_tower: false` with `freeze_multi_modal_projector:
/// false`; ms-swift's `--freeze_vit false --freeze_aligner false`).
fn tower(a: &Architecture, q: &Query, t: &mut Trainable) -> Result<(), Error> {
    if q.tower == TowerTraining::Frozen && q.images == 0 {
        return Ok(());
    }
    let Some(tw) = a.layout.described_tower() else {
        // Loaded but known by its size only (Llama 4, Pixtral), or no tower at all.
        return Err(Error::Refused(Refusal::NoVisionTower { vision: a.layout.vision_params > 0 }));
    };
    if q.tower != TowerTraining::Frozen && (q.images == 0 || q.method == Method::Freeze) {
        return Err(Error::Refused(Refusal::TowerTrainsWithout { images: q.images }));
    }
    if q.images > 0 && (q.tp > 1 || q.pp > 1 || q.cp > 1) {
        return Err(Error::Refused(Refusal::ImagesModelParallel { tp: q.tp, pp: q.pp, cp: q.cp }));
    }
    let linears = tw.block_linears();
    let (r, trained) = (q.rank as u64, a.layout.tower_trainable(q.tower, q.rank as u64, q.targets));
    match q.tower {
        TowerTraining::Frozen => {}
        TowerTraining::Lora => {
            t.adapter += trained;
            t.adafactor_elems += tw.layers * linears.iter().map(|(i, o)| 2 * r + i + o).sum::<u64>();
            t.largest_tensor = t.largest_tensor.max(r * tw.ffn.max(3 * tw.hidden));
        }
        TowerTraining::Full => {
            t.base += trained;
            let matrices = tw.layers * linears.iter().map(|(i, o)| i + o).sum::<u64>();
            t.adafactor_elems += matrices + a.layout.vision_params.saturating_sub(tw.linear_params());
            // The largest of a block's linears and a merger's first (2×2 patches wide, square).
            let wide = tw.hidden * tw.merge * tw.merge;
            t.largest_tensor = t.largest_tensor.max(tw.hidden * tw.ffn.max(3 * tw.hidden)).max(wide * wide);
        }
    }
    Ok(())
}

/// LoRA and DoRA: r·(in + out) per adapted linear (GQA-aware, DoRA's magnitude vector), and
/// embedding or LM-head targets trained in full.
fn adapters(a: &Architecture, q: &Query, t: &mut Trainable) -> Result<(), Error> {
    let r = q.rank as u64;
    // An image encoder has no token table; its `vocab` is the classifier's labels.
    let embed_rows = if a.layout.image.is_some() { 0 } else { a.vocab * a.hidden };
    if q.rank as u64 > a.hidden {
        return Err(Error::Refused(Refusal::RankOverHidden { rank: q.rank, hidden: a.hidden }));
    }
    let mut adapter = 0u64;
    let mut fac = 0u64;
    let mut qkv_done = false;
    for tm in q.targets.iter() {
        // A checkpoint that fuses q, k and v into one linear (Phi-3's `qkv_proj`, SAM's `qkv`)
        // gives PEFT one module to adapt, whichever of the three a person names: one
        // r·(hidden + q + 2·kv) pair, one magnitude of the fused width. litgpt's
        // LoRAQKVLinear has r rows per enabled projection and Unsloth loads Phi "llama-fied"
        // (q, k and v apart), which the per-projection count is.
        let fused = a.quirks.fused_qkv
            && q.framework.runs_hf_trainer()
            && matches!(tm, TargetModule::Q | TargetModule::K | TargetModule::V);
        if fused && std::mem::replace(&mut qkv_done, true) {
            continue;
        }
        let stack = if fused {
            let l = a.layers - a.linear_attn_blocks();
            vec![crate::arch::LinearShape { input: a.hidden, output: a.q_dim() + 2 * a.kv_dim(), count: l }]
        } else {
            a.linear_stack(tm)
        };
        for s in stack {
            adapter += s.count * r * (s.input + s.output);
            fac += s.count * (r + s.input + s.output + r);
            if q.method == Method::Dora {
                adapter += s.count * s.output;
                fac += s.count * s.output;
            }
            t.largest_tensor = t.largest_tensor.max(r * s.input.max(s.output));
        }
    }
    // An image encoder has neither a token table nor an LM head: only its blocks' linears.
    let whole = a.layout.image.is_none()
        && (q.targets.contains(TargetModule::Embed) || q.targets.contains(TargetModule::LmHead));
    if adapter == 0 && !whole {
        return Err(Error::Refused(Refusal::NoTargetExists));
    }
    t.adapter = adapter;
    t.adafactor_elems = fac;
    let mut full = 0;
    if q.targets.contains(TargetModule::Embed) {
        full += embed_rows;
    }
    if q.targets.contains(TargetModule::LmHead) && !(a.tied && q.targets.contains(TargetModule::Embed)) {
        full += if a.encoder_only { 0 } else { embed_rows };
    }
    if full > 0 {
        t.largest_tensor = t.largest_tensor.max(embed_rows);
        t.adafactor_elems += a.vocab + a.hidden;
    }
    if a.layout.image.is_some() && a.classifier_params() > 0 {
        // The classifier is new and trains in full beside the adapters: PEFT's
        // image-classification guide passes `modules_to_save=["classifier"]` (its ViT-B/16
        // with 101 labels prints 667,493 trainable: 589,824 LoRA weights and 77,669).
        full += a.classifier_params();
        t.adafactor_elems += a.vocab + a.hidden + a.vocab;
        t.largest_tensor = t.largest_tensor.max(a.vocab * a.hidden);
    }
    t.base = full;
    Ok(())
}

/// Parameters of the block modules `quant_skip` keeps in 16 bits (a pre-quantized
/// checkpoint's `llm_int8_skip_modules`, e.g. Unsloth's dynamic 4-bit ones).
pub(super) fn quant_skipped(a: &Architecture, q: &Query) -> Result<f64, Error> {
    let m = a.modules();
    let mut total = 0.0;
    for (layer, part) in &q.quant_skip.0 {
        let l = *layer as u64;
        if l >= a.layers {
            return Err(Error::invalid(
                "quant_skip",
                format!("block {l} does not exist: the model has {} blocks", a.layers),
            ));
        }
        // Dense blocks come first (DeepSeek-V3's first_k_dense_replace); MoE otherwise.
        let dense = a.experts <= 1 || l < a.dense_blocks();
        let mlp = if a.experts <= 1 {
            m.mlp
        } else if dense {
            m.dense_mlp
        } else {
            m.mlp - a.router_params()
        };
        let lin = |t: TargetModule| {
            a.linear(t)
                .map(|s| {
                    (s.input
                        * s.output
                        * if matches!(t, TargetModule::Gate | TargetModule::Up | TargetModule::Down) && !dense {
                            s.count
                        } else {
                            1
                        }) as f64
                })
                .unwrap_or(0.0)
        };
        total += match part.as_str() {
            "self_attn" => m.attention as f64,
            "mlp" => mlp as f64,
            "self_attn.q_proj" => lin(TargetModule::Q),
            "self_attn.k_proj" => lin(TargetModule::K),
            "self_attn.v_proj" => lin(TargetModule::V),
            "self_attn.o_proj" => lin(TargetModule::O),
            "mlp.gate_proj" => lin(TargetModule::Gate),
            "mlp.up_proj" => lin(TargetModule::Up),
            _ => lin(TargetModule::Down),
        };
    }
    Ok(total)
}

/// What GaLore projects: the trained block linears (galore_torch's examples and
/// transformers' `optim_target_modules=["attn", "mlp"]`).
pub(super) struct Galore {
    /// Parameters of the projected matrices.
    pub projected_params: f64,
    /// Elements of their states and projectors: Σ 2·max(m, n)·r + r·min(m, n).
    pub projected_states: f64,
    /// The largest projected matrix (m, n).
    pub largest: (f64, f64),
}

pub(super) fn galore(a: &Architecture, q: &Query, tr: &Trainable) -> Galore {
    let mut g = Galore { projected_params: 0.0, projected_states: 0.0, largest: (0.0, 0.0) };
    if tr.base == 0 {
        return g;
    }
    // Freeze trains the last `train_layers` blocks: that share of each stack.
    let share = if q.method == Method::Freeze { q.train_layers as f64 / a.layers.max(1) as f64 } else { 1.0 };
    for t in TargetModule::LINEAR {
        for s in a.linear_stack(t) {
            let (m, n) = (s.input as f64, s.output as f64);
            let r = (q.galore_rank as f64).min(m.min(n));
            let count = s.count as f64 * share;
            g.projected_params += count * m * n;
            g.projected_states += count * (2.0 * m.max(n) * r + r * m.min(n));
            if m * n > g.largest.0 * g.largest.1 {
                g.largest = (m, n);
            }
        }
    }
    g
}
