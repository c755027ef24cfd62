//! Activations: what the blocks, the embedding and the head keep for backward on one GPU,
//! under the resolved checkpointing, offloading and parallelism (crate::activation counts
//! one block).

use super::run::Run;
use crate::activation::{Block, BlockSaved, NormImpl};
use crate::query::{Attention, Checkpointing, Method, TargetModule, Targets};

/// Saved activations on one GPU, bytes.
pub(super) struct Saved {
    /// One block's saved tensors.
    pub per_layer: BlockSaved,
    /// The same block without checkpointing: what its recomputation rebuilds, by kind.
    pub unchecked: BlockSaved,
    /// One block's saved bytes (divided over the tensor-parallel group under sequence parallelism).
    pub layer_bytes: f64,
    /// Blocks whose activations backward needs.
    pub layers_with_grad: f64,
    /// The block rebuilt during backward under checkpointing (0 otherwise).
    pub recompute: f64,
    /// Everything kept at the end of the forward pass, the recomputed block on top.
    pub act: f64,
    /// What the blocks keep before the recomputed one is added.
    pub blocks_saved: f64,
    /// Token ids, labels and the RoPE tables.
    pub misc_saved: f64,
    /// Offloaded activations in host memory, per GPU.
    pub host_act: f64,
    /// The LM head trains (its input is saved; its gradient exists from the loss on).
    pub head_trains: bool,
    /// The vision tower's own pass: what it keeps (in `act`) and its working set.
    pub tower: super::vision::TowerPass,
    /// Autocast's 16-bit weight copies as the run keeps them (in `act` and `recompute`).
    pub autocast: AutocastCopies,
}

/// Autocast's 16-bit copies of fp32 matmul weights on one GPU, bytes. A matmul whose input
/// needs a gradient saves its weight's copy for backward, unless its block is checkpointed:
/// the checkpointed forward saves only the block's inputs and the recomputation casts again
/// (the bf16-mixed records of data/calibration/timelines.json, tools/calibrate/timeline.py). Autocast also
/// caches the cast of a leaf that requires grad until the autocast region exits
/// (aten/src/ATen/autocast_mode.cpp `cached_cast`: `arg.requires_grad() && arg.is_leaf()`),
/// so a trained fp32 weight's copy lives through the forward, checkpointed or not; a frozen
/// one (LoRA's base) is cast per matmul and dropped.
#[derive(Debug, Clone, Copy, Default)]
pub struct AutocastCopies {
    /// Per kept block on average: the copies its graph saves until its backward.
    pub saved: f64,
    /// Per kept block on average: the copies autocast's cache holds until the forward (and
    /// the loss inside it) returns, of checkpointed blocks whose weights train.
    pub cached: f64,
    /// The recomputed block's copies (checkpointing), during its backward.
    pub rebuilt: f64,
    /// The LM head's copy, made as the head runs and saved until its backward.
    pub head: f64,
}

/// What PEFT's cast of an adapted linear's input leaves lora_A to keep per element: the adapter
/// dtype's copy, or under autocast its 16-bit cast back; nothing where the adapters compute in
/// the activations' dtype, or for PEFT's 4-bit layers (`quantized`) under autocast over a
/// 16-bit model (peft 0.21.2 tuners/lora/bnb.py `requires_conversion = not
/// torch.is_autocast_enabled()`: they cast only outside autocast).
pub(super) fn lora_input_cast(r: &Run, quantized: bool) -> f64 {
    let res = r.res;
    if !res.profile.lora_casts_input || !fp32_adapters(r) || (res.autocast_16bit && quantized && res.profile.nf4_bnb) {
        0.0
    } else if r.autocast || res.autocast_16bit {
        r.act_bytes
    } else {
        r.adapter_bytes
    }
}

/// The adapters compute in fp32 over 16-bit activations: stored so, and neither DeepSpeed's
/// 16-bit engine nor FSDP's mixed precision hands them a 16-bit copy.
fn fp32_adapters(r: &Run) -> bool {
    r.adapter_bytes > r.act_bytes && !r.sixteen_bit_engine && !r.fsdp_computes_16bit()
}

/// One block as this run executes it: what its ops save follows from the method, the
/// precision and the framework's kernels (crate::activation counts the bytes).
pub(super) fn block(r: &Run) -> Block {
    let (q, a, res, tp) = (r.q, &r.a, r.res, r.tp);
    // Autocast decides what the ops keep where it has fp32 tensors to cast (`Run::autocast_casts`):
    // under DeepSpeed a mixed run is a 16-bit model.
    let fsdp16 = r.fsdp_computes_16bit();
    let (act_bytes, autocast, fp32) = (r.act_bytes, r.autocast_casts(a.norm), r.fp32);
    let quant_saves = q.method == Method::Qlora && res.profile.nf4_bnb && res.profile.quant_saves_input;
    let block = Block {
        act_bytes,
        full: q.method.trains_base(),
        lora: if q.method.is_lora() { q.targets } else { Targets::NONE },
        rank: q.rank as f64,
        // PEFT casts the adapter input to the adapter dtype; under autocast the fp32 adapter's
        // matmul then casts it back to 16 bits, and that cast is the copy lora_A keeps (its
        // rank-r output is 16-bit too: the probe's bf16-mixed LoRA records and, over a 16-bit
        // model, its `autocast=1` ones). PEFT's 4-bit layers cast nothing under autocast
        // (peft 0.21.2 tuners/lora/bnb.py `requires_conversion = not torch.is_autocast_enabled()`):
        // over a 16-bit model lora_A reads the 16-bit input itself (`lora_input_cast`).
        lora_input_cast_bytes: lora_input_cast(r, q.method == Method::Qlora),
        lora_dropout: res.lora_dropout > 0.0 && q.method.is_lora(),
        quant_saves_input: quant_saves,
        norm: if autocast && res.profile.norm == NormImpl::Fused && a.norm == crate::arch::NormKind::Layer {
            NormImpl::Upcast
        } else {
            res.profile.norm
        },
        attn: res.attn,
        // Autocast runs softmax in fp32 (whatever the weights); transformers' shared eager
        // path upcasts too.
        eager_softmax_fp32: r.autocast || (!fp32 && a.quirks.softmax_fp32),
        expand_kv: res.profile.expand_kv,
        dropout: a.dropout,
        bottleneck: if q.method == Method::Adapter { q.bottleneck as f64 } else { 0.0 },
        compiled: res.compile,
        tp,
        dora: q.method == Method::Dora,
        fused_qkv_linear: res.profile.fused_qkv_linear,
        // An image encoder's samples are all its image's patches: no padding, no mask.
        // Whisper's collator pads the labels with -100 and passes no decoder mask.
        masked: res.profile.mask_per_layer
            && res.attn == Attention::Sdpa
            && a.layout.image.is_none()
            && a.layout.speech.is_none()
            && ((!res.packing && q.batch > 1) || q.method == Method::Prefix),
        prefix_tokens: if q.method == Method::Prefix { q.virtual_tokens as f64 } else { 0.0 },
        native_gelu: !q.framework.uses_transformers(),
        autocast,
        // Only over fp32 weights: FSDP's 16-bit compute copies make the embedding's output, and
        // the stream, 16-bit; DeepSpeed runs no autocast.
        residual_fp32: autocast && !fsdp16,
    };
    // LayerNorm (GPT-2/BERT) runs PyTorch's native kernel: input + stats, no fp32 copy
    // unless autocast runs it in fp32 on a 16-bit input.
    let block = if a.norm == crate::arch::NormKind::Layer && !autocast {
        Block { norm: NormImpl::Fused, ..block }
    } else {
        block
    };
    // Sequence parallelism splits the norms', dropouts' and residuals' activations over the
    // tensor-parallel group too (Korthikanti et al. 2022, §4.2.2): the whole block divides by t.
    if q.sp && q.tp > 1 {
        Block { tp: 1.0, ..block }
    } else {
        block
    }
}

/// One block's saved tensors under `ckpt`: Whisper's decoder blocks add a cross-attention
/// over the encoder's frames (memory/speech.rs), none of it kept by a checkpointed block.
fn block_saved(r: &Run, block: &Block, ckpt: Checkpointing) -> BlockSaved {
    let mut b = block.saved(&r.a, r.tokens, r.seq, ckpt);
    if ckpt == Checkpointing::None {
        b.attention += super::speech::cross(r, block);
    }
    b
}

/// An encoder's own pass: a vision tower's or Whisper's audio encoder's, which keeps its own
/// tensors through the language model's pass; SAM's encoder keeps nothing beyond its blocks,
/// and its pass is the global attention's working set on top of everything kept (`act`, and
/// the block backward rebuilds, `rebuilt`).
fn encoder_pass(r: &Run, block: &Block, act: f64, rebuilt: f64) -> super::vision::TowerPass {
    if r.a.layout.speech.is_some() {
        super::speech::encoder(r, block)
    } else if r.a.layout.sam().is_some() {
        let rebuilt = if r.res.ckpt == Checkpointing::None { 0.0 } else { rebuilt };
        super::sam::pass(r, block, act, rebuilt)
    } else {
        super::vision::tower(r, block)
    }
}

/// A block under the run's checkpointing; the largest block unchecked, which backward rebuilds
/// (the same block but in SAM, memory/sam.rs, whose global blocks are the largest); the
/// average block unchecked.
fn blocks(r: &Run, block: &Block) -> (BlockSaved, BlockSaved, BlockSaved) {
    let ckpt = r.res.ckpt;
    super::sam::blocks(r, block, ckpt).unwrap_or_else(|| {
        let per_layer = block_saved(r, block, ckpt);
        let unchecked =
            if ckpt == Checkpointing::None { per_layer } else { block_saved(r, block, Checkpointing::None) };
        (per_layer, unchecked, unchecked)
    })
}

pub(super) fn saved(r: &Run, autocast_copies: f64, autocast_head: f64) -> Saved {
    let (q, a, res, tp) = (r.q, &r.a, r.res, r.tp);
    let (seq, tokens, act_bytes) = (r.seq, r.tokens, r.act_bytes);
    let block = block(r);
    let sp = q.sp && q.tp > 1;
    let sp_div = if sp { tp } else { 1.0 };
    let (per_layer, unchecked, unchecked_avg) = blocks(r, &block);
    let layer_bytes = per_layer.total() / sp_div;
    let layers_with_grad = match q.method {
        Method::Freeze => q.train_layers as f64,
        _ => a.layers as f64,
    };
    let none_bytes = unchecked.total() / sp_div;
    let none_avg = unchecked_avg.total() / sp_div;
    // Checkpointing every n-th block only (torchtitan's `selective_ac_option: "n"`): the
    // other blocks keep everything.
    let checkpointed =
        if res.ckpt == Checkpointing::None { 0.0 } else { (layers_with_grad / q.ckpt_every.max(1) as f64).floor() };
    let mut act = checkpointed * layer_bytes + (layers_with_grad - checkpointed) * none_avg;
    let mut recompute = 0.0;
    if checkpointed > 0.0 {
        // Backward recomputes one block at a time: all of it (full), or what the per-op
        // policy did not keep.
        match res.ckpt {
            Checkpointing::Full => recompute = none_bytes,
            Checkpointing::Op => recompute = (none_bytes - layer_bytes).max(0.0),
            _ => {}
        }
    }
    let autocast = autocast_kept(r, autocast_copies, autocast_head, layers_with_grad, checkpointed)
        .plus(adapter_copies(r, layers_with_grad, checkpointed));
    // Activation offloading (torchtune OffloadActivations, Unsloth's offloaded checkpointing):
    // each block's saved tensors are copied to pinned host memory on a side stream as the
    // forward moves on, and prefetched one block ahead in backward, so about two blocks' worth
    // stay on the GPU (the one in flight and the next); the rest lives in host RAM.
    let mut host_act = 0.0;
    if res.act_offload && layers_with_grad > 2.0 {
        host_act = (layers_with_grad - 2.0) * layer_bytes;
        act = 2.0 * layer_bytes;
    }
    // The first block of a PEFT model: its input (frozen embeddings) needs no gradient, so
    // its first norm keeps nothing.
    let h = a.hidden as f64;
    let first_norm = if block.norm == NormImpl::Upcast {
        if res.compile {
            act_bytes
        } else {
            4.0
        }
    } else {
        act_bytes
    };
    let sam = a.layout.sam().is_some();
    // SAM under freeze: the first trained block's norm weight trains, so it keeps its input.
    let frozen_input = matches!(
        q.method,
        Method::Lora | Method::Qlora | Method::Dora | Method::Adapter | Method::Freeze | Method::Prefix
    ) && !q.targets.contains(TargetModule::Embed)
        && res.ckpt != Checkpointing::Full
        && layers_with_grad > 0.0
        && !(sam && q.method == Method::Freeze);
    if frozen_input {
        act -= first_norm * h * tokens;
    }
    // Final norm (fp32 copy; its 16-bit input copy when its weight trains) and the LM-head
    // input when the head trains.
    let head_trains = q.method == Method::Full || q.targets.contains(TargetModule::LmHead) && q.method.is_peft();
    let final_norm_trains = q.method == Method::Full;
    let normed = if a.quirks.norm_fp32_scale { 4.0 } else { act_bytes };
    let head_saved = tokens
        * h
        * (first_norm
            + if final_norm_trains && block.norm == NormImpl::Upcast { normed } else { 0.0 }
            + if head_trains { act_bytes } else { 0.0 });
    // Encoder-only models: the embedding LayerNorm keeps its input, and with dropout the
    // embedding dropout keeps its mask.
    let head_saved = head_saved + if a.dropout { tokens * h } else { 0.0 };
    // PEFT with gradient checkpointing calls `enable_input_require_grads`: the frozen token
    // embedding's output becomes a leaf that requires grad, held by the graph's AccumulateGrad
    // node until backward. With learned positions (GPT-2, BERT) something is added to it
    // before block 0, so it is a tensor of its own; otherwise it is block 0's input, counted.
    let peft_trainer = q.framework.uses_transformers();
    let embed_leaf = peft_trainer
        && q.method.is_peft()
        && res.ckpt == Checkpointing::Full
        && a.positions > 0
        && !q.targets.contains(TargetModule::Embed);
    // An fp32 table's output is fp32 (the stream's type under `residual_fp32`).
    let leaf_bytes = if block.residual_fp32 { 4.0 } else { act_bytes };
    let head_saved = head_saved + if embed_leaf { tokens * h * leaf_bytes } else { 0.0 };
    // SAM has no final norm or classifier: its neck and mask decoder instead.
    let head_saved = if sam { super::sam::outside(r) } else { head_saved };
    act += head_saved;
    // Token ids and labels (int64) and the RoPE cos/sin tables.
    let misc_saved = 16.0 * tokens + 4.0 * seq * a.head_dim as f64;
    // Autocast's 16-bit weight copies: saved by the unchecked blocks' matmuls, and the head's.
    act += autocast.saved * layers_with_grad + autocast.head;
    recompute += autocast.rebuilt;
    // A trained vision tower runs first and is backpropagated last: what it keeps lives
    // through the whole language model's forward and backward.
    // Whisper's audio encoder is the same: first in the forward, last in the backward.
    let tower = encoder_pass(r, &block, act, none_bytes);
    act += tower.saved;
    let blocks_saved = act;
    // On top, the larger of what never coexists: autocast's cache of the trained weights'
    // copies, held to the forward's end, and the block the backward rebuilds.
    act += recompute.max(autocast.cached * layers_with_grad);
    // Padded batches carry a 4D additive mask (model dtype) shared by all layers; packed
    // batches a block-causal boolean mask; flash-attn uses neither.
    // Masks: transformers keeps one per layer (inside the block, above); torchtune's
    // packed samples use one block-causal boolean mask (b, s, s) for SDPA; eager attention
    // in transformers builds one additive mask shared by all layers.
    if !res.profile.mask_per_layer && res.attn != Attention::Flash && a.layout.image.is_none() {
        if res.packing {
            act += q.batch as f64 * seq * seq;
        } else if q.batch > 1 {
            act += q.batch as f64 * seq * seq * act_bytes;
        }
    }
    Saved {
        per_layer,
        unchecked,
        layer_bytes,
        layers_with_grad,
        recompute,
        act,
        blocks_saved,
        misc_saved,
        host_act,
        head_trains,
        tower,
        autocast,
    }
}

impl AutocastCopies {
    fn plus(self, o: AutocastCopies) -> AutocastCopies {
        AutocastCopies {
            saved: self.saved + o.saved,
            cached: self.cached + o.cached,
            rebuilt: self.rebuilt + o.rebuilt,
            head: self.head + o.head,
        }
    }
}

/// Autocast's 16-bit copies of fp32 adapter weights over a 16-bit model (`autocast`; under
/// `*-mixed` the base's copies are the ones counted): lora_A and lora_B each save their
/// weight's cast for backward (op `_to_copy(weight)` in the probe's `autocast=1` records:
/// 2·r·(in + out) bytes per adapted linear), and autocast caches the casts of these trained
/// leaves until the forward returns (aten/src/ATen/autocast_mode.cpp `cached_cast`), so a
/// checkpointed block's copies live through the forward as well.
fn adapter_copies(r: &Run, layers_with_grad: f64, checkpointed: f64) -> AutocastCopies {
    if !(r.res.autocast_16bit && r.q.method.is_lora() && fp32_adapters(r)) || layers_with_grad <= 0.0 {
        return AutocastCopies::default();
    }
    let per_block = r.tr.adapter as f64 * r.act_bytes / r.a.layers.max(1) as f64 / r.tp;
    AutocastCopies {
        saved: (layers_with_grad - checkpointed) * per_block / layers_with_grad,
        cached: checkpointed * per_block / layers_with_grad,
        rebuilt: if checkpointed > 0.0 { per_block } else { 0.0 },
        head: 0.0,
    }
}

/// Where autocast's copies live in this run (`AutocastCopies`): `copies` is every block
/// linear's and the head's, `head` the head's alone, for one replica.
fn autocast_kept(r: &Run, copies: f64, head: f64, layers_with_grad: f64, checkpointed: f64) -> AutocastCopies {
    let (q, a, tp) = (r.q, &r.a, r.tp);
    if copies <= 0.0 || layers_with_grad <= 0.0 {
        return AutocastCopies { head: head / tp, ..AutocastCopies::default() };
    }
    let per_block = (copies - head).max(0.0) / a.layers.max(1) as f64 / tp;
    // The blocks whose fp32 weights train: every block in a full fine-tune, the trained ones
    // under freeze (`layers_with_grad`); adapters' bases are frozen.
    let trained = matches!(q.method, Method::Full | Method::Freeze);
    let unchecked = layers_with_grad - checkpointed;
    AutocastCopies {
        saved: unchecked * per_block / layers_with_grad,
        cached: if trained { checkpointed * per_block / layers_with_grad } else { 0.0 },
        rebuilt: if checkpointed > 0.0 { per_block } else { 0.0 },
        head: head / tp,
    }
}
