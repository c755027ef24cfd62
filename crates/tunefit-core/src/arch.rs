//! Transformer architectures: the config fields that decide parameter counts and activations.
//!
//! An `Architecture` is what a Hugging Face `config.json` says about a model, reduced to what
//! memory depends on. `param_count` is exact (it reproduces published counts, tests in
//! `tests/catalog.rs`), and `modules` gives the per-module counts the memory model needs
//! (linear shapes for LoRA, the largest single module for DeepSpeed's ZeRO-3 estimator).

use crate::query::ArchOverrides;
use serde::Serialize;

/// Feed-forward block shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MlpKind {
    /// gate, up and down projections with an elementwise product (SwiGLU / GeGLU).
    Gated,
    /// fc1, activation, fc2 (GPT-2, BERT, phi-1.5).
    Plain,
}

/// Normalisation layer kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum NormKind {
    /// RMSNorm: one weight vector.
    Rms,
    /// LayerNorm: weight and bias.
    Layer,
}

/// One transformer model, as its config describes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Architecture {
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    /// Intermediate (FFN) width of one expert.
    pub ffn: u64,
    pub vocab: u64,
    /// Input embedding and LM head share one matrix.
    pub tied: bool,
    pub mlp: MlpKind,
    pub norm: NormKind,
    /// Norms per block: 2 (pre-attention, pre-MLP), 4 in Gemma 2 (pre and post), 1 when
    /// attention and MLP run in parallel (phi-1.5).
    pub norms_per_layer: u64,
    /// Per-head RMSNorm on q and k (Qwen3-style); adds 2·head_dim per layer.
    pub qk_norm: bool,
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub mlp_bias: bool,
    pub lm_head_bias: bool,
    /// Learned absolute position embeddings (GPT-2, BERT): rows of the table; 0 for RoPE/ALiBi.
    pub positions: u64,
    /// Routed experts per MoE layer (1 = dense).
    pub experts: u64,
    pub experts_per_token: u64,
    /// Encoder-only (BERT): no LM head over the vocabulary; token-type embeddings, an
    /// embedding LayerNorm and a pooler instead.
    pub encoder_only: bool,
    /// Token-type embeddings rows (BERT: 2).
    pub type_vocab: u64,
    /// Hidden dropout in the block (GPT-2/BERT train with p = 0.1; Llama-family has none).
    pub dropout: bool,
    /// Guessed from a parameter count alone.
    pub inferred: bool,
    /// Activation-level behaviour that changes which tensors are kept (not parameters).
    pub quirks: Quirks,
}

/// Implementation details of a model family that change its saved tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Quirks {
    /// Extra FFN-width tensors the activation keeps: GPT-2/phi's `gelu_new` is written as
    /// elementwise ops (0.5·x, tanh, 1 + tanh kept besides the input): 3.
    pub act_extra_saves: u64,
    /// The checkpoint fuses its projections: q, k and v come from one linear (GPT-2 c_attn,
    /// Phi-3 qkv_proj), and in a gated MLP gate and up too (Phi-3 gate_up_proj, the only
    /// gated family with fused qkv). v is a view that keeps the whole output alive, and PEFT
    /// wraps each fused linear as one module: one adapter, one input.
    pub fused_qkv: bool,
    /// Gemma 2: tanh soft-capping of attention scores (one more s² tensor per head) and of
    /// the final logits (one more V-wide tensor per token).
    pub softcap: bool,
    /// Gemma: the norm multiplies by (1 + weight) in fp32, so the fp32 normalised input is
    /// kept when the weight trains.
    pub norm_fp32_scale: bool,
    /// Eager attention runs softmax in fp32 and casts back, keeping both (transformers'
    /// shared `eager_attention_forward`); GPT-2 and BERT keep one softmax in the model dtype.
    pub softmax_fp32: bool,
}

/// Parameter counts of the parts of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ModuleCounts {
    /// Token (+ position, + token-type) embeddings and the embedding norm.
    pub embedding: u64,
    /// LM head (0 when tied or encoder-only).
    pub lm_head: u64,
    /// One block's attention projections (with biases).
    pub attention: u64,
    /// One block's MLP (all experts) plus router.
    pub mlp: u64,
    /// One block's norms.
    pub norms: u64,
    /// Final norm (+ BERT pooler).
    pub head_extra: u64,
    /// Largest single module's own parameters (DeepSpeed's `largest_layer`).
    pub largest_module: u64,
}

/// A linear projection of one block: input and output widths, and how many per block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearShape {
    pub input: u64,
    pub output: u64,
    /// Instances per block (experts for MoE MLP projections).
    pub count: u64,
}

impl Architecture {
    pub fn q_dim(&self) -> u64 { self.heads * self.head_dim }
    pub fn kv_dim(&self) -> u64 { self.kv_heads * self.head_dim }
    fn norm_params(&self) -> u64 { match self.norm { NormKind::Rms => self.hidden, NormKind::Layer => 2 * self.hidden } }

    /// Shape of one of the seven block linears (GQA-aware: k and v map hidden to kv_dim).
    pub fn linear(&self, t: crate::query::TargetModule) -> Option<LinearShape> {
        use crate::query::TargetModule as T;
        let (h, f, e) = (self.hidden, self.ffn, self.experts);
        Some(match t {
            T::Q => LinearShape { input: h, output: self.q_dim(), count: 1 },
            T::K | T::V => LinearShape { input: h, output: self.kv_dim(), count: 1 },
            T::O => LinearShape { input: self.q_dim(), output: h, count: 1 },
            T::Gate => match self.mlp { MlpKind::Gated => LinearShape { input: h, output: f, count: e }, MlpKind::Plain => return None },
            T::Up => LinearShape { input: h, output: f, count: e },
            T::Down => LinearShape { input: f, output: h, count: e },
            T::Embed | T::LmHead => return None,
        })
    }

    pub fn modules(&self) -> ModuleCounts {
        let (h, v) = (self.hidden, self.vocab);
        let qkv_bias = if self.qkv_bias { self.q_dim() + 2 * self.kv_dim() } else { 0 };
        let attention = h * (self.q_dim() + 2 * self.kv_dim()) + qkv_bias
            + self.q_dim() * h + if self.o_bias { h } else { 0 }
            + if self.qk_norm { 2 * self.head_dim } else { 0 };
        let one_expert = match self.mlp {
            MlpKind::Gated => 3 * h * self.ffn + if self.mlp_bias { 2 * self.ffn + h } else { 0 },
            MlpKind::Plain => 2 * h * self.ffn + if self.mlp_bias { self.ffn + h } else { 0 },
        };
        let router = if self.experts > 1 { h * self.experts } else { 0 };
        let mlp = self.experts * one_expert + router;
        let norms = self.norms_per_layer * self.norm_params();
        let mut embedding = v * h + self.positions * h + self.type_vocab * h;
        if self.encoder_only { embedding += self.norm_params(); }
        let lm_head = if self.tied || self.encoder_only { 0 } else { v * h + if self.lm_head_bias { v } else { 0 } };
        let pooler = if self.encoder_only { h * h + h } else { 0 };
        let head_extra = if self.encoder_only { pooler } else { self.norm_params() };
        // Largest module with its own parameters (recurse=False): the token embedding or LM
        // head in every LLM; a single expert projection could only win for absurd shapes.
        let linear_max = [h * self.q_dim(), h * self.ffn].into_iter().max().unwrap_or(0);
        let largest_module = (v * h).max(lm_head).max(linear_max);
        ModuleCounts { embedding, lm_head, attention, mlp, norms, head_extra, largest_module }
    }

    /// Parameters of one block.
    pub fn layer_params(&self) -> u64 {
        let m = self.modules();
        m.attention + m.mlp + m.norms
    }

    /// Exact total parameter count (tied weights counted once).
    pub fn param_count(&self) -> u64 {
        let m = self.modules();
        m.embedding + m.lm_head + m.head_extra + self.layers * (m.attention + m.mlp + m.norms)
    }

    /// Parameters that a token actually passes through (MoE: only the routed experts' MLPs).
    pub fn active_params(&self) -> u64 {
        if self.experts <= 1 { return self.param_count(); }
        let m = self.modules();
        let per_expert = (m.mlp - self.hidden * self.experts) / self.experts;
        self.param_count() - self.layers * per_expert * (self.experts - self.experts_per_token)
    }

    /// Parameters stored in the seven block linears (what QLoRA quantizes).
    pub fn block_linear_params(&self) -> u64 {
        let m = self.modules();
        let biases_and_router = if self.experts > 1 { self.hidden * self.experts } else { 0 };
        self.layers * (m.attention + m.mlp - biases_and_router)
    }

    /// A plausible Llama-style architecture for a bare parameter count: hidden grows as the
    /// Llama family's (h ≈ 128·L), MHA with head_dim 128, vocab 32000, untied; the FFN width
    /// absorbs the remainder so the total matches the requested count within one FFN column.
    pub fn infer(params: u64) -> Architecture {
        let v = 32_000u64;
        // Llama family: 12·L·h² + 2·V·h ≈ P with L = h/128 → solve for h, round to 256.
        let p = params as f64;
        let mut best_h = 256u64;
        let mut h = 256u64;
        while h <= 65_536 {
            let l = (h / 128).max(2) as f64;
            let est = 12.0 * l * (h * h) as f64 + 2.0 * v as f64 * h as f64;
            if est <= p { best_h = h; } else { break; }
            h += 256;
        }
        let h = best_h;
        let layers = (h / 128).max(2);
        let heads = (h / 128).max(1);
        let mut a = Architecture {
            layers, hidden: h, heads, kv_heads: heads, head_dim: h / heads, ffn: 1, vocab: v,
            tied: false, mlp: MlpKind::Gated, norm: NormKind::Rms, norms_per_layer: 2,
            qk_norm: false, qkv_bias: false, o_bias: false, mlp_bias: false, lm_head_bias: false,
            positions: 0, experts: 1, experts_per_token: 1, encoder_only: false, type_vocab: 0,
            dropout: false, inferred: true, quirks: Quirks::default(),
        };
        let fixed = a.param_count() - layers * 3 * h; // everything but ffn columns (ffn = 1)
        let per_col = layers * 3 * h;
        a.ffn = (params.saturating_sub(fixed) as f64 / per_col as f64).round().max(1.0) as u64;
        a
    }

    /// Applies explicit query fields on top of this architecture.
    pub fn apply(&mut self, o: &ArchOverrides) {
        if let Some(x) = o.layers { self.layers = x as u64; }
        if let Some(x) = o.hidden {
            self.hidden = x as u64;
            if o.head_dim.is_none() && self.heads > 0 && self.hidden.is_multiple_of(self.heads) { self.head_dim = self.hidden / self.heads; }
        }
        if let Some(x) = o.heads {
            // Multi-head attention stays multi-head: an inferred architecture (or an MHA
            // preset) given a new head count keeps one k/v head per query head.
            let mha = self.kv_heads == self.heads;
            self.heads = x as u64;
            if o.head_dim.is_none() && self.hidden.is_multiple_of(self.heads) { self.head_dim = self.hidden / self.heads; }
            if o.kv_heads.is_none() && (mha || self.kv_heads > self.heads) { self.kv_heads = self.heads; }
        }
        if let Some(x) = o.kv_heads { self.kv_heads = x as u64; }
        if let Some(x) = o.head_dim { self.head_dim = x as u64; }
        if let Some(x) = o.ffn { self.ffn = x as u64; }
        if let Some(x) = o.vocab { self.vocab = x as u64; }
        if let Some(x) = o.tied { self.tied = x; }
        if let Some(x) = o.experts { self.experts = x as u64; }
        if let Some(x) = o.experts_per_token { self.experts_per_token = x as u64; }
        if self.experts_per_token > self.experts { self.experts_per_token = self.experts; }
    }

    /// Query keys that reproduce this architecture on top of an inferred one (for links
    /// made from a pasted config.json).
    pub fn to_overrides(&self) -> ArchOverrides {
        let c = |x: u64| Some(x.min(u32::MAX as u64) as u32);
        ArchOverrides {
            layers: c(self.layers), hidden: c(self.hidden), heads: c(self.heads),
            kv_heads: c(self.kv_heads), head_dim: c(self.head_dim), ffn: c(self.ffn),
            vocab: c(self.vocab), tied: Some(self.tied),
            experts: if self.experts > 1 { c(self.experts) } else { None },
            experts_per_token: if self.experts > 1 { c(self.experts_per_token) } else { None },
        }
    }

    /// Checks that the fields describe a buildable model; names the offending key.
    pub fn validate(&self) -> Result<(), crate::report::Error> {
        let bad = |key: &str, m: String| Err(crate::report::Error::Invalid { key: key.into(), message: m });
        if self.heads == 0 || self.hidden == 0 || self.layers == 0 || self.head_dim == 0 || self.ffn == 0 || self.vocab == 0 {
            return bad("hidden", "layers, hidden, heads, head_dim, ffn and vocab must all be at least 1".into());
        }
        if self.kv_heads == 0 || self.kv_heads > self.heads || !self.heads.is_multiple_of(self.kv_heads) {
            return bad("kv_heads", format!("kv_heads {} must divide heads {}", self.kv_heads, self.heads));
        }
        if self.experts_per_token == 0 || self.experts_per_token > self.experts {
            return bad("experts_per_token", format!("must be from 1 to experts ({})", self.experts));
        }
        // Keep every product far from u64 overflow: 10^15 parameters is 1000x the largest model.
        let p = (self.layers as f64) * (self.hidden as f64) * ((self.ffn * self.experts) as f64 * 3.0 + 4.0 * (self.q_dim() as f64))
            + 2.0 * (self.vocab as f64) * (self.hidden as f64);
        // NaN (an overflowed product) is refused too.
        if p.is_nan() || p >= 1e15 {
            return bad("hidden", format!("the architecture has about {p:.3e} parameters; at most 1e15 are supported"));
        }
        Ok(())
    }
}
