//! Activation memory: the tensors autograd keeps for backward, per transformer block.
//!
//! Every term is one tensor that a PyTorch op saves (its `SavedVariable`s), per token, in
//! bytes. PyTorch saves an op's input only when the *other* operand needs a gradient
//! (autograd codegen guards each save with `should_compute_output`), so a frozen linear keeps
//! nothing and a trainable one keeps its input; an elementwise product keeps both operands;
//! SiLU/GELU keep their input; softmax keeps its output; dropout keeps a 1-byte mask.
//! Tensors that are the same storage (the norm output read by q, k and v) count once.
//!
//! Korthikanti et al. (2022) Table 2 is a special case (tests/oracles/korthikanti.rs) — a GPT
//! block with dropout, eager attention, 16-bit, LayerNorm saving only its input — and
//! `tests/activation.rs` checks the formulas come out exactly (`tensors()` excludes the
//! per-row norm statistics, which the paper leaves out).

use crate::arch::{Architecture, MlpKind, NormKind};
use crate::query::{Attention, Checkpointing, TargetModule, Targets};

/// How a block's normalisation layers keep tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormImpl {
    /// `x.float()` then normalise (HF LlamaRMSNorm, torchtune RMSNorm, litgpt RMSNorm): the
    /// fp32 copy of the input (4 B/elem) is saved by pow/mul; the 16-bit normalised value is
    /// saved too when the norm weight trains.
    Upcast,
    /// A fused kernel (Unsloth's Triton RMSNorm, Megatron/apex LayerNorm, PyTorch's native
    /// LayerNorm): saves its input at the activation dtype plus per-row statistics.
    Fused,
}

/// What trains in one block and how its linears behave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Block {
    /// Bytes per activation element (2 for 16-bit compute, 4 for fp32).
    pub act_bytes: f64,
    /// Every weight of the block trains (full fine-tune, or a trainable layer under freeze).
    pub full: bool,
    /// Linears carrying a LoRA/DoRA adapter.
    pub lora: Targets,
    pub rank: f64,
    /// The adapter runs in a wider dtype than the activations and PEFT casts its input
    /// (`_cast_input_dtype`): each adapted linear keeps its own fp32 copy of the input.
    pub lora_input_cast_bytes: f64,
    /// LoRA dropout p > 0: each adapted linear keeps a mask and a dropped copy of its input.
    pub lora_dropout: bool,
    /// Frozen quantized linears whose autograd function saves the input anyway
    /// (bitsandbytes ≤ 0.43.1 `MatMul4Bit` saved `A` whenever the input needs a gradient;
    /// from 0.43.2 it does not: `Profile::quant_saves_input`).
    pub quant_saves_input: bool,
    pub norm: NormImpl,
    pub attn: Attention,
    /// Eager softmax in fp32 (HF eager: `softmax(dtype=float32)` then cast back): the fp32
    /// output and the 16-bit probabilities are both kept.
    pub eager_softmax_fp32: bool,
    /// SDPA with GQA expands k and v to all heads before the kernel (HF `repeat_kv`,
    /// torchtune and litgpt `expand`); flash-attn 2 reads the kv heads directly.
    pub expand_kv: bool,
    /// Hidden and attention-probability dropout active (GPT-2 / BERT training).
    pub dropout: bool,
    /// Bottleneck adapter width (0 = none): two Houlsby adapters per block.
    pub bottleneck: f64,
    /// torch.compile (Inductor) fuses elementwise chains: the gated MLP's silu output and
    /// the norm's fp32 copy are recomputed in the fused backward instead of saved.
    pub compiled: bool,
    /// Tensor-parallel degree (Megatron layout without sequence parallelism).
    pub tp: f64,
    /// DoRA adapters (keep the rescaled base output).
    pub dora: bool,
    /// The framework's model code fuses q, k and v into one linear (litgpt's `attn`), whatever
    /// the checkpoint's layout: its adapter has one lora_A and one input, and q, k, v are views
    /// of the one projection output (see the attention kernel below).
    pub fused_qkv_linear: bool,
    /// An attention mask reaches SDPA (padded batches, prefix tuning): k/v are repeated to
    /// all heads and every layer keeps the mask (transformers).
    pub masked: bool,
    /// Prefix-tuning virtual tokens prepended to keys and values.
    pub prefix_tokens: f64,
    /// The framework calls the native GELU kernel (saves its input only) where transformers
    /// writes `gelu_new` as elementwise ops.
    pub native_gelu: bool,
    /// Mixed precision: an fp32 model under `torch.autocast`. The residual stream and the
    /// norms stay fp32, and autocast casts an activation to 16 bits separately for every
    /// matmul that reads it (only weights, as leaves, are cached), so each trainable linear
    /// keeps its own 16-bit copy of the norm output.
    pub autocast: bool,
    /// The residual stream between blocks is fp32: an fp32 model under autocast whose
    /// parameters stay fp32 as it computes (not FSDP's or ZeRO's 16-bit compute copies), so
    /// the embedding's output is fp32 and each block adds its 16-bit outputs to fp32.
    pub residual_fp32: bool,
}

/// Saved bytes of one block, by part, for a given number of tokens.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BlockSaved {
    pub norms: f64,
    /// Per-row mean/rstd kept by norms (8 B/token each); left out of Korthikanti's count.
    pub norm_stats: f64,
    /// Inputs of linears (q/k/v input, o input), adapters, attention kernel tensors.
    pub attention: f64,
    /// s² tensors of eager attention (scores softmax, dropout mask and output).
    pub attention_scores: f64,
    pub mlp: f64,
    pub adapters: f64,
    pub dropout_masks: f64,
}

impl BlockSaved {
    /// Everything the block keeps.
    pub fn total(&self) -> f64 {
        self.tensors() + self.norm_stats
    }
    /// Everything but the per-row norm statistics (Korthikanti's accounting).
    pub fn tensors(&self) -> f64 {
        self.norms + self.attention + self.attention_scores + self.mlp + self.adapters + self.dropout_masks
    }
}

impl Block {
    fn trains(&self, t: TargetModule) -> bool {
        self.full || self.lora.contains(t)
    }

    /// Bytes one block saves for `tokens` = b·s tokens of sequences of length `seq`.
    pub fn saved(&self, a: &Architecture, tokens: f64, seq: f64, ckpt: Checkpointing) -> BlockSaved {
        let (norms, norm_stats) = self.norms(a, tokens);
        let (attention, attention_scores) = self.attention(a, tokens, seq, ckpt);
        let mlp = self.mlp(a, tokens);
        // Dropout after attention and after the MLP keeps a 1-byte mask each.
        let dropout_masks = if self.dropout { a.hidden as f64 * tokens + a.hidden as f64 * tokens } else { 0.0 };
        let adapters = self.adapters(a, tokens);
        let s = BlockSaved { norms, norm_stats, attention, attention_scores, mlp, adapters, dropout_masks };
        self.checkpointed(a, tokens, ckpt, s)
    }

    /// What one of the block's norms keeps over `tokens` rows, its row statistics included.
    pub fn one_norm(&self, a: &Architecture, tokens: f64) -> f64 {
        let (norms, stats) = self.norms(a, tokens);
        (norms + stats) / a.norms_per_layer.max(1) as f64
    }

    /// What one adapted linear of `input` features keeps per row beyond its base (lora_A's
    /// private input copy when cast or dropped out, the rank-r intermediate, DoRA's rescaled
    /// output of `output` features); 0 when `t` carries no adapter.
    pub fn adapter_row(&self, t: TargetModule, input: f64, output: f64) -> f64 {
        if !self.lora.contains(t) {
            return 0.0;
        }
        let (e, cast) = (self.act_bytes, self.lora_input_cast_bytes);
        let copy = if self.lora_dropout { input * (1.0 + if cast > 0.0 { cast } else { e }) } else { input * cast };
        let rb = if cast > 0.0 { cast } else { e };
        copy + self.rank * rb + if self.dora { output * (rb + e) } else { 0.0 }
    }

    /// Whether the linear `t` keeps its input for its weight's gradient (every weight trains)
    /// or for its adapter's.
    pub fn trains_linear(&self, t: TargetModule) -> bool {
        self.trains(t)
    }

    /// Two norms per block (pre-attention, pre-MLP); extra post-norms (Gemma 2) act on outputs
    /// that are summed into the residual and keep their input too. `(norms, row statistics)`.
    fn norms(&self, a: &Architecture, tokens: f64) -> (f64, f64) {
        let e = self.act_bytes;
        let h = a.hidden as f64;
        let n_norms = a.norms_per_layer.max(1) as f64;
        let per_norm = match self.norm {
            // Under autocast LayerNorm runs in fp32 (autocast's fp32 op list): the native
            // kernel keeps only its fp32 input (the residual) and the row statistics.
            NormImpl::Upcast if self.autocast && a.norm == NormKind::Layer => 4.0,
            // Under autocast RMSNorm's `x.to(float32)` is a no-op on the fp32 residual, which
            // the norm keeps (4h); with a trainable fp32 weight it keeps the fp32 normalised
            // value too. (Gemma's (1 + weight) scale already works in fp32: same bytes.)
            NormImpl::Upcast if self.autocast => 4.0 + if self.full { 4.0 } else { 0.0 },
            NormImpl::Upcast => {
                let fp32_copy = if self.compiled { e } else { 4.0 };
                // The weight's gradient needs the normalised input: 16-bit, or fp32 where the
                // norm scales in fp32 (Gemma's `(1 + weight)`).
                let normed = if a.quirks.norm_fp32_scale { 4.0 } else { e };
                fp32_copy + if self.full { normed } else { 0.0 }
            }
            NormImpl::Fused => e,
        };
        (n_norms * per_norm * h * tokens, n_norms * 8.0 * tokens)
    }

    /// The norm output q, k and v read, the attention kernel's saved tensors, the o
    /// projection's input: `(attention, eager attention's scores)`.
    fn attention(&self, a: &Architecture, tokens: f64, seq: f64, ckpt: Checkpointing) -> (f64, f64) {
        use TargetModule as T;
        let e = self.act_bytes;
        let h = a.hidden as f64;
        let (qd, kvd) = (a.q_dim() as f64, a.kv_dim() as f64);
        let heads = a.heads as f64;
        let t = self.tp.max(1.0);
        // Prefix tuning prepends virtual keys/values: k, v and scores span seq + prefix.
        let kv_ratio = (seq + self.prefix_tokens) / seq;
        let mut scores = 0.0;
        let quant_keep = self.quant_saves_input && !self.full;
        let qkv_in = [T::Q, T::K, T::V].iter().any(|x| self.trains(*x)) || quant_keep;
        let qkv_in_shared = self.full || (self.lora_input_cast_bytes == 0.0 && !self.lora_dropout && qkv_in);
        let mut attn = 0.0;
        // One 16-bit norm output shared by q, k and v; under autocast with trainable weights
        // each projection keeps its own cast of the fp32 norm output. One fused linear, in the
        // checkpoint or the framework's model code (litgpt's `attn`, torchvision's
        // `in_proj_weight`), casts once.
        let qkv_casts =
            if self.autocast && self.full && !(a.quirks.fused_qkv || self.fused_qkv_linear) { 3.0 } else { 1.0 };
        if qkv_in_shared || quant_keep {
            attn += e * h * qkv_casts;
        }
        // --- attention kernel.
        match self.attn {
            Attention::Flash | Attention::Sdpa => {
                // q, k, v (after RoPE), output, and the fp32 log-sum-exp per head. k and v
                // keep kv heads unless the framework expands them before SDPA.
                // With an attention mask (padded batch, prefix) transformers' SDPA path repeats
                // k/v to all heads and each layer keeps its own mask in the model dtype.
                // Repeating k/v to all heads is the identity when there are as many kv heads
                // as heads (`repeat_kv` returns its input for n_rep = 1).
                let expand = (self.expand_kv || self.masked) && self.attn == Attention::Sdpa && a.kv_heads < a.heads;
                let kv_saved = if expand { qd } else { kvd } * kv_ratio;
                // One fused q/k/v linear: in the checkpoint (GPT-2 c_attn, Phi-3 qkv_proj) or in
                // the framework's model code (litgpt `attn`, whose `qkv.view/permute/split`
                // leaves v a view for MHA; with GQA its `expand` + `reshape` copies k and v).
                let fused = a.quirks.fused_qkv || self.fused_qkv_linear;
                // A `cat`-built rotary q (litgpt's `apply_rope` + `cat`, Phi-3's partial
                // rotary) is contiguous head-major, and the kernel's output follows q's layout,
                // so `transpose(1, 2)` + `contiguous()`/`reshape` copies it for the
                // o-projection, which keeps the copy when its weight trains (Phi-3's `clone`)
                // or an adapter reads it uncast and undropped (an adapter that casts its input
                // keeps its own fp32 copy instead).
                // Where k and v are expanded, only litgpt's own `attn` is probed
                // (tools/calibrate/litgpt_probe.py); torchtune splits Phi-3's fused checkpoint
                // and applies rotary before its transpose, which copies nothing.
                let o_reads_copy = fused
                    && (!expand || self.fused_qkv_linear)
                    && a.positions == 0
                    && (self.full
                        || (self.lora.contains(T::O) && self.lora_input_cast_bytes == 0.0 && !self.lora_dropout));
                if o_reads_copy {
                    attn += e * qd / t;
                }
                if fused && !expand && self.prefix_tokens == 0.0 {
                    // v is a view of the fused projection's output, which the kernel's saved v
                    // keeps alive whole (autograd saves the view, i.e. its whole storage);
                    // rotary q and k are new tensors (learned positions: q, k are views too).
                    let roped = if a.positions == 0 { qd + kvd } else { 0.0 };
                    attn += e * (roped + qd + 2.0 * kvd) / t + e * qd / t + 4.0 * heads / t;
                } else {
                    // With prefix keys/values, k and v are new (`cat`) tensors; a q that is a
                    // view of the fused projection (no rotary: GPT-2) still keeps it whole.
                    let q_saved = if fused && a.positions > 0 && !expand { qd + 2.0 * kvd } else { qd };
                    attn += e * (q_saved + 2.0 * kv_saved) / t + e * qd / t + 4.0 * heads / t;
                }
                if self.masked && self.attn == Attention::Sdpa {
                    attn += e * seq * kv_ratio;
                }
            }
            Attention::Eager => {
                // q and k for QKᵀ, v for probs·V (eager implementations repeat k/v to all
                // heads first); scores: softmax output, dropout mask and dropped
                // probabilities (Korthikanti: 2as²b + as²b + 2as²b).
                attn += e * qd * (1.0 + 2.0 * kv_ratio) / t;
                if ckpt != Checkpointing::Selective {
                    // Gemma 2 soft-caps scores with tanh, whose output is kept too.
                    // Softmax output (fp32 when upcast), then either the dropout's mask and
                    // 16-bit output, or (no dropout) the 16-bit cast the probs·V matmul reads.
                    let sm = if self.eager_softmax_fp32 { 4.0 } else { e } + if a.quirks.softcap { e } else { 0.0 };
                    let after = if self.dropout {
                        1.0 + e
                    } else if self.eager_softmax_fp32 {
                        e
                    } else {
                        0.0
                    };
                    scores = heads / t * seq * kv_ratio * (sm + after) * tokens;
                }
            }
        }
        // Output projection input: flash/SDPA kernels write their output in (b, s, heads, d)
        // layout, so the o-projection reads the kernel's saved output (same storage); eager
        // attention makes a contiguous copy.
        if (self.trains(T::O) || quant_keep) && self.attn == Attention::Eager {
            attn += e * qd / t;
        }
        (attn * tokens, scores)
    }

    /// The MLP's saved tensors (router state for a mixture of experts).
    fn mlp(&self, a: &Architecture, tokens: f64) -> f64 {
        use TargetModule as T;
        let e = self.act_bytes;
        let h = a.hidden as f64;
        let t = self.tp.max(1.0);
        let quant_keep = self.quant_saves_input && !self.full;
        let mlp_in = [T::Gate, T::Up].iter().any(|x| self.trains(*x)) || quant_keep;
        let mut mlp = 0.0;
        let mlp_in_shared = self.full || (self.lora_input_cast_bytes == 0.0 && !self.lora_dropout && mlp_in);
        // Likewise gate and up each keep their cast under autocast (fused gate_up: one).
        let mlp_casts =
            if self.autocast && self.full && a.mlp == MlpKind::Gated && !a.quirks.fused_qkv { 2.0 } else { 1.0 };
        if mlp_in_shared || quant_keep {
            mlp += e * h * mlp_casts;
        }
        let fe = a.active_ffn() / t;
        // The down projection's own input is kept when its weight trains, when a quantized
        // linear keeps it, or when an adapter reads it uncast and undropped (same storage).
        let down_reads_input = self.full
            || quant_keep
            || (self.lora.contains(T::Down) && self.lora_input_cast_bytes == 0.0 && !self.lora_dropout);
        match a.mlp {
            MlpKind::Gated => {
                // gate output (saved by SiLU/GELU), activation output and up output (saved by
                // the product); Inductor recomputes the activation output in backward.
                mlp += e * fe * if self.compiled { 2.0 } else { 3.0 };
                if down_reads_input {
                    mlp += e * fe;
                }
            }
            MlpKind::Plain => {
                // fc1 output (GELU input), and GELU output when fc2 needs its weight gradient;
                // a GELU written as elementwise ops keeps its intermediates (unless fused).
                mlp += e
                    * fe
                    * (1.0 + if self.compiled || self.native_gelu { 0.0 } else { a.quirks.act_extra_saves as f64 });
                if down_reads_input {
                    mlp += e * fe;
                }
            }
        }
        if a.experts > 1 {
            // Router logits (fp32 softmax over experts) and the token permutation indices.
            mlp += 4.0 * a.experts as f64 + 8.0 * a.experts_per_token as f64;
        }
        mlp * tokens
    }

    /// LoRA's and DoRA's saved inputs and intermediates, or the bottleneck adapters'.
    fn adapters(&self, a: &Architecture, tokens: f64) -> f64 {
        use TargetModule as T;
        let e = self.act_bytes;
        let (h, f) = (a.hidden as f64, a.ffn as f64);
        let (qd, kvd) = (a.q_dim() as f64, a.kv_dim() as f64);
        let t = self.tp.max(1.0);
        let mut ad = 0.0;
        let mut qkv_input_done = false;
        let mut gate_up_done = false;
        for tm in self.lora.iter() {
            let Some(shape) = a.linear(tm) else { continue };
            // Phi-3's checkpoint fuses gate and up (`gate_up_proj`): PEFT wraps one module,
            // with one input copy, one rank-r intermediate and (DoRA) one 2f-wide output.
            if a.quirks.fused_qkv && a.mlp == MlpKind::Gated && matches!(tm, T::Gate | T::Up) {
                if gate_up_done {
                    continue;
                }
                gate_up_done = true;
            }
            // A fused-qkv adapter (litgpt's LoRAQKVLinear, one lora_A over the merged
            // projection) drops out and reads its input once for q, k and v together.
            let shared = (self.fused_qkv_linear || a.quirks.fused_qkv) && matches!(tm, T::Q | T::K | T::V);
            if shared && qkv_input_done {
                // litgpt's lora_A has r rows per enabled projection (its lora_B input grows by
                // r); a model whose checkpoint fuses qkv (GPT-2 c_attn, Phi-3 qkv_proj) gets
                // one PEFT module for q, k and v together: nothing more.
                if !a.quirks.fused_qkv {
                    ad += self.rank * e;
                }
                continue;
            }
            if shared {
                qkv_input_done = true;
            }
            let input = shape.input as f64 / if tm.is_row_parallel() { t } else { 1.0 };
            let active = if tm.is_mlp() { a.experts_per_token as f64 } else { 1.0 };
            // lora_A's input: a private copy when cast to the adapter dtype or dropped out.
            if self.lora_dropout {
                ad += active
                    * input
                    * (1.0 + if self.lora_input_cast_bytes > 0.0 { self.lora_input_cast_bytes } else { e });
            } else if self.lora_input_cast_bytes > 0.0 {
                ad += active * input * self.lora_input_cast_bytes;
            }
            // lora_B's input: the rank-r intermediate.
            let rb = if self.lora_input_cast_bytes > 0.0 { self.lora_input_cast_bytes } else { e };
            ad += active * self.rank * rb;
            if self.dora {
                // DoRA: the base layer's output, rescaled by the trainable magnitude, is kept
                // in the adapter dtype plus its cast back to the activation dtype. On a fused
                // qkv checkpoint the one PEFT module's output is the whole q + k + v width.
                let out = if shared && a.quirks.fused_qkv {
                    qd + 2.0 * kvd
                } else if gate_up_done && matches!(tm, T::Gate | T::Up) {
                    2.0 * f
                } else {
                    shape.output as f64
                };
                ad += active * (out / if tm.is_column_parallel() { t } else { 1.0 }) * (rb + e);
            }
        }
        // litgpt's LoRAQKVLinear adapts some of q, k and v through one fused linear: its
        // `zero_pad` writes lora_B's output into a zero-filled q + k + v-wide tensor with
        // `index_copy` (litgpt/lora.py @00af8b0d lines 330–347 and @26857050 lines 309–326;
        // lit_gpt/lora.py @8641822 lines 256–297, where the source is a `reshape` copy), whose
        // backward formula reads `source` (pytorch tools/autograd/derivatives.yaml, index_copy:
        // `grad.index_select(dim, index).expand_as(source)`), so autograd keeps lora_B's
        // output, the enabled projections' width. With all three enabled `zero_pad` returns its
        // input untouched and nothing more is kept.
        if self.fused_qkv_linear {
            let on = |x: T| self.lora.contains(x);
            if (on(T::Q) || on(T::K) || on(T::V)) && !(on(T::Q) && on(T::K) && on(T::V)) {
                let width =
                    [(T::Q, qd), (T::K, kvd), (T::V, kvd)].iter().filter(|(x, _)| on(*x)).map(|(_, w)| w).sum::<f64>();
                let rb = if self.lora_input_cast_bytes > 0.0 { self.lora_input_cast_bytes } else { e };
                ad += width / t * rb;
            }
        }
        if self.bottleneck > 0.0 {
            // Houlsby: two adapters (after attention, after MLP), each keeps its input,
            // the down-projection output (activation input) and the activation output.
            ad += 2.0 * e * (h + 2.0 * self.bottleneck);
        }
        ad * tokens
    }

    /// What checkpointing leaves of the block's saved tensors at the end of the forward pass.
    fn checkpointed(&self, a: &Architecture, tokens: f64, ckpt: Checkpointing, s: BlockSaved) -> BlockSaved {
        let e = self.act_bytes;
        let h = a.hidden as f64;
        let (qd, kvd) = (a.q_dim() as f64, a.kv_dim() as f64);
        let heads = a.heads as f64;
        let t = self.tp.max(1.0);
        let fe = a.active_ffn() / t;
        match ckpt {
            Checkpointing::Full => {
                // Only the block input survives the forward pass: the residual stream, fp32
                // under autocast over fp32 weights (the probe's bf16-mixed ckpt=full records:
                // 2 bytes more per element than a 16-bit hidden state, block for block).
                BlockSaved {
                    norms: 0.0,
                    norm_stats: 0.0,
                    attention: if self.residual_fp32 { 4.0 } else { e } * h * tokens,
                    attention_scores: 0.0,
                    mlp: 0.0,
                    adapters: 0.0,
                    dropout_masks: 0.0,
                }
            }
            Checkpointing::Op => {
                // torchtitan's per-op policy (torchtitan/models/llama3/infra/parallelize.py,
                // `_save_list`, `_get_custom_policy`): the block input, the attention kernel's
                // output and log-sum-exp, and the output of every odd-numbered `aten.mm` in
                // the block — q (1st), v (3rd), w1 (5th), w2 (7th) of q, k, v, o, w1, w3, w2 —
                // are kept; norms, rotary, k, o, w3 and the SiLU product are recomputed.
                BlockSaved {
                    norms: 0.0,
                    norm_stats: 0.0,
                    attention: (e * (h + qd / t + kvd / t + qd / t) + 4.0 * heads / t) * tokens,
                    attention_scores: 0.0,
                    mlp: e * (fe + h) * tokens,
                    adapters: s.adapters,
                    dropout_masks: 0.0,
                }
            }
            _ => s,
        }
    }
}
