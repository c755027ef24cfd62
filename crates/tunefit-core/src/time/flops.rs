//! FLOPs per trained token: the model-FLOPs count published MFU figures use, and the work a
//! GPU really executes (recomputation, DoRA's second matmul, causal attention).
//!
//! A = active params, T = trainable, L = layers, d = attention width heads·head_dim,
//! s = sequence length; 2 FLOPs per multiply-add.
//! - model FLOPs per token (MosaicML's and PaLM's MFU definition, torchtitan's too):
//!   forward 2·(A + T_adapter) + 4·L·d·s (non-causal attention count), backward twice that for
//!   trained weights and attention, once for frozen weights (their activation gradients).
//! - executed: full checkpointing repeats the forward, selective the attention forward.

use crate::framework::Resolved;
use crate::query::{Checkpointing, Method, Query, TowerTraining};
use crate::settings::Settings;

/// The model numbers the FLOP count and the kernel model need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlopShape {
    /// Every parameter of the checkpoint.
    pub total: f64,
    /// Parameters a token passes through (MoE: routed experts only).
    pub active: f64,
    /// Trainable parameters (adapters for PEFT methods).
    pub trainable: f64,
    pub layers: f64,
    /// Blocks with softmax attention (all but the linear-attention ones): the s² work.
    pub attn_layers: f64,
    /// Attention width heads·head_dim.
    pub attn_width: f64,
    /// Each token attends only to those before it (a decoder): the kernels skip the masked
    /// half of the scores. An encoder's (BERT, a ViT) attend to the whole sequence.
    pub causal: bool,
    pub hidden: f64,
    pub kv_width: f64,
    /// MLP width a token passes through (gated MLPs: one of gate/up; MoE: routed experts').
    pub ffn_active: f64,
    pub vocab: f64,
    /// Parameters of the block linears a token passes through, and of the LM head.
    pub linear_active: f64,
    pub head: f64,
    /// Frozen linear parameters that carry an adapter (DoRA's extra matmul runs over them).
    pub adapted: f64,
    /// Linear modules per block (the seven of a Llama block; four for GPT-2).
    pub linears_per_layer: f64,
    /// A multimodal model's vision tower on the samples' images, per language-model token.
    pub tower: TowerFlops,
    /// Trainable parameters a token's backward does not run through once each (SAM's mask
    /// decoder, which runs once per image; its per-patch work is in `active`): taken off the
    /// trained weights' backward.
    pub once_per_image: f64,
}

/// The vision tower's work spread over the language model's tokens (`images` per sample of
/// `seq` tokens), so that it scales with the tokens of a micro-step as the rest does.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TowerFlops {
    /// Forward GEMM FLOPs per token: its blocks' linears over every patch, the merger's over
    /// every visual token.
    pub fwd: f64,
    /// Forward attention FLOPs per token (bidirectional: 4·hidden·patches attended per
    /// patch, per block; windowed blocks attend within their window).
    pub attn: f64,
    /// Tower adapter FLOPs per token (LoRA on its linears), forward.
    pub adapter: f64,
    /// The tower trains (`tower=lora|full`): its backward runs, through every block (full:
    /// its weights' gradients too).
    pub trains: bool,
    pub full: bool,
    /// Its linears' parameters, read once per pass over them (0 without images).
    pub params: f64,
    /// Its trainable parameters (in `FlopShape::trainable`, which the gradients' traffic, the
    /// optimizer step and the saves count): its adapters run on its patches, not on every token.
    pub trainable: f64,
}

impl TowerFlops {
    pub fn of(q: &Query, arch: &crate::arch::Architecture) -> TowerFlops {
        if let Some(sp) = arch.layout.speech {
            return TowerFlops::speech(q, arch, sp);
        }
        let Some(tw) = arch.layout.described_tower().filter(|_| q.images > 0) else {
            return TowerFlops::default();
        };
        let patches = tw.per_image(q.image_res).patches as f64;
        let per_token = q.images as f64 / q.seq.max(1) as f64;
        let layers = tw.layers as f64;
        let full_layers = (tw.full_attn_layers as f64).min(layers);
        let attended = full_layers * patches + (layers - full_layers) * (tw.window as f64).min(patches);
        let merged = patches / (tw.merge * tw.merge).max(1) as f64;
        let lora = if q.tower == TowerTraining::Lora {
            tw.lora_params(q.rank as u64, q.targets) as f64 / layers.max(1.0)
        } else {
            0.0
        };
        TowerFlops {
            fwd: per_token * (2.0 * tw.linear_params() as f64 * patches + 2.0 * tw.projector_linears as f64 * merged),
            attn: per_token * 4.0 * tw.hidden as f64 * patches * attended,
            adapter: per_token * 2.0 * lora * layers * patches,
            trains: q.tower != TowerTraining::Frozen,
            full: q.tower == TowerTraining::Full,
            params: (tw.linear_params() + tw.projector_linears) as f64,
            trainable: arch.layout.tower_trainable(q.tower, q.rank as u64, q.targets) as f64,
        }
    }

    /// Whisper's audio encoder and the decoder's cross-attention keys and values, which run on
    /// each clip's encoder positions (one clip per sequence of labels), spread over the labels:
    /// the convolutions (`conv1` over the mel frames, `conv2` over the positions, kernel 3),
    /// the encoder's linears, every decoder block's k_proj and v_proj over the positions (less
    /// the once per label token the decoder's active count charges them), bidirectional
    /// attention over the positions and each label's cross-attention over them.
    fn speech(q: &Query, arch: &crate::arch::Architecture, sp: &crate::arch::SpeechEncoder) -> TowerFlops {
        use crate::query::TargetModule as M;
        let per_token = 1.0 / q.seq.max(1) as f64;
        let (h, f) = (arch.hidden as f64, arch.ffn as f64);
        let (positions, decoder, encoder) = (sp.positions() as f64, arch.layers as f64, sp.layers as f64);
        let convs = 3.0 * h * (sp.frames as f64 * sp.mels as f64 + positions * h);
        let linear = sp.linear_params(arch.hidden, arch.ffn) as f64;
        let cross_kv = 2.0 * h * h * decoder;
        let rank = q.rank as f64;
        let lora = |t: M| if q.method.is_lora() && q.targets.contains(t) { rank } else { 0.0 };
        let encoder_lora = encoder
            * ([M::Q, M::K, M::V, M::O].iter().map(|t| lora(*t) * 2.0 * h).sum::<f64>()
                + (lora(M::Up) + lora(M::Down)) * (h + f));
        let cross_lora = decoder * (lora(M::K) + lora(M::V)) * 2.0 * h;
        TowerFlops {
            fwd: per_token * 2.0 * (convs + (linear + cross_kv) * positions) - 2.0 * cross_kv,
            attn: per_token * 4.0 * h * positions * positions * encoder + 4.0 * h * positions * decoder,
            adapter: per_token * 2.0 * (encoder_lora + cross_lora) * positions,
            trains: crate::arch::SpeechEncoder::trains(q),
            full: q.method == Method::Full,
            params: linear,
            trainable: if q.method == Method::Full {
                arch.speech_encoder_params() as f64
            } else {
                encoder_lora + cross_lora
            },
        }
    }

    /// Model FLOPs per token, forward and backward, counted as the language model's are: a
    /// frozen tower's forward only (nothing upstream of it needs a gradient); a trained one's
    /// backward twice the forward for trained weights and attention, once for frozen linears
    /// (their activation gradients), twice its adapters'.
    fn passes(&self) -> (f64, f64) {
        let fwd = self.fwd + self.attn + self.adapter;
        let bwd = match (self.trains, self.full) {
            (false, _) => 0.0,
            (true, true) => 2.0 * (self.fwd + self.attn),
            (true, false) => self.fwd + 2.0 * self.attn + 2.0 * self.adapter,
        };
        (fwd, bwd)
    }
}

impl FlopShape {
    /// From the query's preset or inferred architecture, scaled to the memory model's counts.
    pub fn of(settings: &Settings, params: u64, trainable: u64) -> FlopShape {
        let (q, arch) = (&*settings.query, &settings.arch);
        let total = arch.param_count().max(1) as f64;
        let active_ratio = (arch.active_params() as f64 / total).clamp(0.0, 1.0);
        // The memory model may count a few parameters differently (e.g. a pasted config);
        // scale the architecture's parts to its total.
        let scale = params as f64 / total;
        // Linears a token passes through: the blocks' less the experts it is not routed to.
        let linear_active = arch.block_linear_params() as f64 - (arch.text_params() - arch.active_params()) as f64;
        let head = if arch.encoder_only { 0.0 } else { (arch.vocab * arch.hidden) as f64 };
        let per_target = |t: crate::query::TargetModule| -> f64 {
            use crate::query::TargetModule as M;
            let (h, qd, kv, f) = (arch.hidden as f64, arch.q_dim() as f64, arch.kv_dim() as f64, arch.active_ffn());
            let gated = matches!(arch.mlp, crate::arch::MlpKind::Gated);
            arch.layers as f64
                * match t {
                    M::Q => h * qd,
                    M::K | M::V => h * kv,
                    M::O => qd * h,
                    M::Gate => {
                        if gated {
                            h * f
                        } else {
                            0.0
                        }
                    }
                    M::Up | M::Down => h * f,
                    M::Embed | M::LmHead => 0.0,
                }
        };
        let adapted = if q.method.is_lora() { q.targets.iter().map(per_target).sum::<f64>() } else { 0.0 };
        let gated = matches!(arch.mlp, crate::arch::MlpKind::Gated);
        // The tower's adapters and weights run on its patches, in `tower`, not on every token.
        let tower = TowerFlops::of(q, arch);
        let mut active = params as f64 * active_ratio;
        let mut attn_layers = (arch.layers - arch.linear_attn_blocks()) as f64;
        let mut once_per_image = 0.0;
        if let Some((img, sam)) = arch.layout.sam() {
            // SAM: the position table is added, not multiplied; the prompt encoder and the
            // mask decoder run once per image, the decoder's image-side linears over its
            // patches (`decoder_work_per_patch`); windowed blocks' attention linears run over
            // the padded grid; attention spans a window, or the image in global blocks.
            let side = img.side / img.patch;
            let (h, n) = (arch.hidden, side * side);
            let outside = side * side * h + crate::arch::Sam::PROMPT_ENCODER + crate::arch::Sam::MASK_DECODER;
            let windowed = arch.layers - sam.global.min(arch.layers);
            let padded = windowed * (4 * h * h + 4 * h) * sam.padding(side);
            active += (sam.decoder_work_per_patch() as f64 - outside as f64) * scale + padded as f64 / n as f64;
            attn_layers = sam.attention_work(arch.layers, side) / (n * n) as f64;
            once_per_image = (crate::arch::Sam::MASK_DECODER - sam.decoder_work_per_patch()) as f64 * scale;
        }
        FlopShape {
            total: params as f64,
            active,
            trainable: trainable as f64,
            layers: arch.layers as f64,
            attn_layers,
            attn_width: (arch.heads * arch.head_dim) as f64,
            causal: !arch.encoder_only,
            hidden: arch.hidden as f64,
            kv_width: arch.kv_dim() as f64,
            ffn_active: arch.active_ffn(),
            vocab: arch.vocab as f64,
            linear_active: linear_active * scale,
            head: head * scale,
            adapted: adapted * scale,
            linears_per_layer: if gated { 7.0 } else { 4.0 },
            tower,
            once_per_image,
        }
    }

    /// Trainable parameters that are not the base weights (adapters, prompts) and run on
    /// every token: the vision tower's are counted with its patches.
    pub fn adapter(&self, m: Method) -> f64 {
        if m.trains_base() {
            0.0
        } else {
            (self.trainable - self.tower.trainable).max(0.0)
        }
    }
}

/// Model FLOPs per trained token, without recomputation: the numerator of MFU.
pub fn model_flops_per_token(q: &Query, s: &FlopShape) -> f64 {
    let (fwd, bwd) = passes(q, s);
    let (tf, tb) = s.tower.passes();
    fwd + bwd + tf + tb
}

/// Forward and backward model FLOPs per token.
fn passes(q: &Query, s: &FlopShape) -> (f64, f64) {
    let attn = 4.0 * s.attn_layers * s.attn_width * q.seq as f64;
    match q.method {
        Method::Full => (2.0 * s.active + attn, 4.0 * s.active + 2.0 * attn),
        Method::Freeze => {
            // Backward runs only through the trained top layers.
            let trained = (s.trainable - s.once_per_image).max(0.0);
            let frac = (trained / s.active.max(1.0)).clamp(0.0, 1.0);
            (2.0 * s.active + attn, 4.0 * trained + 2.0 * attn * frac)
        }
        m => {
            let t = (s.adapter(m) - s.once_per_image).max(0.0);
            (2.0 * (s.active + t) + attn, 2.0 * s.active + 4.0 * t + 2.0 * attn)
        }
    }
}

/// FLOPs executed per trained token (forward, backward and recomputation), counted as
/// `model_flops_per_token` counts them.
/// Checkpointing is the resolved one, so memory and time agree on what is recomputed.
pub fn flops_per_token(settings: &Settings, s: &FlopShape) -> f64 {
    flops_per_token_with(&settings.query, s, settings.resolved.ckpt)
}

pub fn flops_per_token_with(q: &Query, s: &FlopShape, ckpt: Checkpointing) -> f64 {
    let (fwd, bwd) = passes(q, s);
    let attn = 4.0 * s.attn_layers * s.attn_width * q.seq as f64;
    let recompute = match ckpt {
        Checkpointing::Full => fwd,
        Checkpointing::Selective => attn,
        // torchtitan's per-op policy recomputes k, o and w3 (the even-numbered matmuls) and
        // the elementwise work: that share of the block linears' forward.
        Checkpointing::Op => {
            let (h, qd, kv, f) = (s.hidden, s.attn_width, s.kv_width, s.ffn_active);
            let all = h * qd + 2.0 * h * kv + qd * h + 3.0 * h * f;
            if all > 0.0 {
                fwd * (h * kv + qd * h + h * f) / all
            } else {
                0.0
            }
        }
        Checkpointing::None => 0.0,
    };
    // Checkpointing every n-th block recomputes 1/n of it; a trained tower's checkpointed
    // blocks repeat their forward too.
    let (tf, tb) = s.tower.passes();
    let tower_recompute = if s.tower.trains && ckpt == Checkpointing::Full { tf } else { 0.0 };
    fwd + bwd + recompute / q.ckpt_every.max(1) as f64 + tf + tb + tower_recompute
}

/// How many times each kind of work runs per token: forward, backward, recomputed forward.
#[derive(Debug, Clone, Copy)]
pub struct Passes {
    /// Linear-layer FLOPs per token: forward + backward + recomputation (+ DoRA's second matmul).
    pub gemm_flops: f64,
    /// Weight bytes (in units of "parameters") the GEMMs stream per micro-step: each pass
    /// over a weight reads it once.
    pub weight_reads: f64,
    /// Causal attention FLOPs executed per token (flash kernels skip the masked half;
    /// the backward does 2.5× the forward's matmuls).
    pub attn_flops: f64,
    /// Forward passes over the blocks (1, or 2 with full recomputation).
    pub forwards: f64,
    /// Backward passes through the blocks (1, or the trained fraction for freeze).
    pub backwards: f64,
}

pub fn passes_executed(q: &Query, r: &Resolved, s: &FlopShape) -> Passes {
    let lin = s.linear_active + s.head;
    let t = s.adapter(q.method);
    // Share of the forward's linears run again in backward: all (full), the per-op policy's
    // recomputed matmuls (k, o, w3), none; checkpointing every n-th block only, 1/n of it.
    let every = q.ckpt_every.max(1) as f64;
    let lin_recompute = match r.ckpt {
        Checkpointing::Full => 1.0,
        Checkpointing::Op => {
            let (h, qd, kv, f) = (s.hidden, s.attn_width, s.kv_width, s.ffn_active);
            let all = h * qd + 2.0 * h * kv + qd * h + 3.0 * h * f;
            if all > 0.0 {
                (h * kv + qd * h + h * f) / all
            } else {
                0.0
            }
        }
        _ => 0.0,
    } / every;
    let fwd_lin = 2.0 * (lin + if q.method.uses_virtual_tokens() { 0.0 } else { t });
    let (bwd_lin, backwards, reads_bwd) = match q.method {
        Method::Full => (4.0 * lin, 1.0, 2.0 * lin),
        Method::Freeze => {
            let frac = (s.trainable / s.active.max(1.0)).clamp(0.0, 1.0);
            (4.0 * s.trainable + 2.0 * s.head, frac.max(s.head / lin.max(1.0)), 2.0 * s.trainable + s.head)
        }
        _ => (2.0 * lin + 4.0 * t, 1.0, lin + 2.0 * t),
    };
    // PEFT's DoRA layer runs the base weight a second time (`F.linear(x, weight)` beside the
    // base layer's own forward, peft/tuners/lora/dora.py `DoraLinearLayer.forward`), and that
    // matmul's input gradient flows back too.
    let dora = if q.method == Method::Dora { 2.0 * s.adapted } else { 0.0 };
    let forwards = 1.0 + lin_recompute;
    // The vision tower: its forward (again under full checkpointing when it trains), then its
    // backward when it trains: activation gradients through every linear, weight gradients
    // for a fully trained one, twice its adapters' work under LoRA.
    let tw = &s.tower;
    let tower_forwards = if tw.trains && r.ckpt == Checkpointing::Full { 2.0 } else { 1.0 };
    let tower_bwd = match (tw.trains, tw.full) {
        (false, _) => 0.0,
        (true, true) => 2.0 * tw.fwd,
        (true, false) => tw.fwd + 2.0 * tw.adapter,
    };
    let tower_gemm = tower_forwards * (tw.fwd + tw.adapter) + tower_bwd;
    let tower_reads = tw.params
        * (tower_forwards
            + if tw.trains {
                if tw.full {
                    2.0
                } else {
                    1.0
                }
            } else {
                0.0
            });
    let gemm_flops = forwards * (fwd_lin + dora) + bwd_lin + dora + tower_gemm;
    let weight_reads = forwards * lin + reads_bwd + tower_reads;
    let attn_fwd = if s.causal { 2.0 } else { 4.0 } * s.attn_layers * s.attn_width * q.seq as f64;
    // The per-op policy keeps the attention kernel's output: no attention recompute.
    let attn_recompute = match r.ckpt {
        Checkpointing::None | Checkpointing::Op => 0.0,
        _ => 1.0 / every,
    };
    let tower_attn = tw.attn * (tower_forwards + if tw.trains { 2.5 } else { 0.0 });
    let attn_flops = attn_fwd * (1.0 + attn_recompute + 2.5 * backwards) + tower_attn;
    Passes { gemm_flops, weight_reads, attn_flops, forwards, backwards }
}
