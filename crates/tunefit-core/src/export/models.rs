//! Which checkpoint, and what its layers are called: the Hugging Face repo id of each preset
//! (the checkpoint its config.json fields were read from) and, per architecture family, the
//! names transformers' modeling files give the linear layers (modeling_llama, modeling_mixtral,
//! modeling_phi3, modeling_phi, modeling_gpt2, modeling_bert, Qwen v1 remote code). Several
//! frameworks write them: PEFT `target_modules` and `modules_to_save`, FSDP's decoder-layer
//! class. Writes no file itself.

use super::Note;
use crate::arch::{Architecture, MlpKind};
use crate::query::{Query, TargetModule};

/// Hugging Face repo id of each preset (the checkpoint its config.json fields were read from).
pub(super) fn model_id(preset: Option<&str>) -> Option<&'static str> {
    Some(match preset? {
        "llama-2-7b" => "meta-llama/Llama-2-7b-hf",
        "llama-2-13b" => "meta-llama/Llama-2-13b-hf",
        "llama-2-70b" => "meta-llama/Llama-2-70b-hf",
        "codellama-7b" => "meta-llama/CodeLlama-7b-hf",
        "llama-3-8b" => "meta-llama/Meta-Llama-3-8B",
        "llama-3.1-8b" => "meta-llama/Llama-3.1-8B",
        "llama-3-70b" => "meta-llama/Meta-Llama-3-70B",
        "llama-3.1-70b" => "meta-llama/Llama-3.1-70B",
        // Llama 3.3 was published as an instruct model only.
        "llama-3.3-70b" => "meta-llama/Llama-3.3-70B-Instruct",
        "llama-3.1-405b" => "meta-llama/Llama-3.1-405B",
        "llama-3.2-1b" => "meta-llama/Llama-3.2-1B",
        "llama-3.2-3b" => "meta-llama/Llama-3.2-3B",
        "tinyllama-1.1b" => "TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T",
        "mistral-7b" => "mistralai/Mistral-7B-v0.1",
        "mistral-7b-v0.3" => "mistralai/Mistral-7B-v0.3",
        "mixtral-8x7b" => "mistralai/Mixtral-8x7B-v0.1",
        "qwen-7b" => "Qwen/Qwen-7B",
        "qwen2-7b" => "Qwen/Qwen2-7B",
        "qwen2.5-0.5b" => "Qwen/Qwen2.5-0.5B",
        "qwen2.5-1.5b" => "Qwen/Qwen2.5-1.5B",
        "qwen2.5-3b" => "Qwen/Qwen2.5-3B",
        "qwen2.5-7b" => "Qwen/Qwen2.5-7B",
        "qwen2.5-14b" => "Qwen/Qwen2.5-14B",
        "qwen2.5-32b" => "Qwen/Qwen2.5-32B",
        "qwen2.5-72b" => "Qwen/Qwen2.5-72B",
        "gemma-2b" => "google/gemma-2b",
        "gemma-7b" => "google/gemma-7b",
        "gemma-2-2b" => "google/gemma-2-2b",
        "gemma-2-9b" => "google/gemma-2-9b",
        "gemma-2-27b" => "google/gemma-2-27b",
        "phi-1.5" => "microsoft/phi-1_5",
        "phi-3-mini" => "microsoft/Phi-3-mini-4k-instruct",
        "gpt2" => "openai-community/gpt2",
        "gpt2-medium" => "openai-community/gpt2-medium",
        "gpt2-large" => "openai-community/gpt2-large",
        "gpt2-xl" => "openai-community/gpt2-xl",
        "bert-base-uncased" => "google-bert/bert-base-uncased",
        "bert-large-uncased" => "google-bert/bert-large-uncased",
        "vit-b" => "google/vit-base-patch16-224",
        "vit-l" => "google/vit-large-patch16-224",
        "vit-h" => "google/vit-huge-patch14-224-in21k",
        "clip-vit-l" => "openai/clip-vit-large-patch14",
        "siglip-so400m" => "google/siglip-so400m-patch14-384",
        "whisper-small" => "openai/whisper-small",
        "whisper-medium" => "openai/whisper-medium",
        "whisper-large-v2" => "openai/whisper-large-v2",
        "whisper-large-v3" => "openai/whisper-large-v3",
        "whisper-large-v3-turbo" => "openai/whisper-large-v3-turbo",
        "sam-vit-base" => "facebook/sam-vit-base",
        "sam-vit-large" => "facebook/sam-vit-large",
        "sam-vit-huge" => "facebook/sam-vit-huge",
        _ => return None,
    })
}

/// How a family's transformers modeling file names its linear layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Naming {
    /// modeling_llama / mistral / qwen2 / gemma: q_proj … down_proj.
    Llama,
    /// modeling_mixtral: experts' w1 (gate), w3 (up), w2 (down).
    Mixtral,
    /// modeling_phi3: fused qkv_proj and gate_up_proj.
    Phi3,
    /// modeling_phi (phi-1.5): q_proj, k_proj, v_proj, dense, fc1, fc2.
    Phi,
    /// modeling_gpt2: fused c_attn (Conv1D), attn.c_proj, mlp.c_fc, mlp.c_proj.
    Gpt2,
    /// modeling_bert: query, key, value, attention.output.dense, intermediate.dense, output.dense.
    Bert,
    /// Qwen v1 remote code: fused c_attn, attn.c_proj, w1 (up), w2 (gate), mlp.c_proj.
    QwenV1,
    /// modeling_clip's vision encoder: q_proj, k_proj, v_proj, out_proj, fc1, fc2.
    Clip,
    /// modeling_siglip's: CLIP's names, and a pooling head whose `attention.out_proj` and
    /// `mlp.fc1`/`fc2` those names would also reach.
    Siglip,
    /// modeling_whisper: the encoder's and the decoder's `self_attn` and the decoder's
    /// `encoder_attn`, each q_proj, k_proj, v_proj, out_proj; fc1, fc2.
    Whisper,
    /// modeling_sam: the image encoder's `vision_encoder.layers.N.attn.qkv` (one fused linear),
    /// `attn.proj`, `mlp.lin1`, `mlp.lin2`.
    Sam,
    /// modeling_vit as transformers 5 writes it (5.23.0: `vit.layers.N.attention.q_proj`,
    /// `o_proj`, `mlp.fc1`, `mlp.fc2`; 4.x had BERT's `query` … `output.dense`).
    Vit,
}

pub(super) fn naming(preset: Option<&str>, a: &Architecture) -> Naming {
    // An image encoder by its input, whatever overrides its link has: SigLIP has no class
    // token, CLIP's patch convolution no bias.
    if let Some(img) = a.layout.image {
        if img.sam.is_some() {
            return Naming::Sam;
        }
        return match (img.cls, img.conv_bias) {
            (false, _) => Naming::Siglip,
            (true, false) => Naming::Clip,
            (true, true) => Naming::Vit,
        };
    }
    if a.layout.speech.is_some() {
        return Naming::Whisper;
    }
    match preset.unwrap_or("") {
        "mixtral-8x7b" => Naming::Mixtral,
        "phi-3-mini" => Naming::Phi3,
        "phi-1.5" => Naming::Phi,
        "qwen-7b" => Naming::QwenV1,
        p if p.starts_with("gpt2") => Naming::Gpt2,
        p if p.starts_with("bert") => Naming::Bert,
        _ if a.encoder_only => Naming::Bert,
        _ if a.mlp == MlpKind::Plain => Naming::Gpt2,
        _ => Naming::Llama,
    }
}

impl Naming {
    /// Transformers decoder-layer class, for FSDP's transformer auto-wrap policy.
    pub(super) fn layer_class(self, preset: Option<&str>) -> &'static str {
        match self {
            Naming::Mixtral => "MixtralDecoderLayer",
            Naming::Phi3 => "Phi3DecoderLayer",
            Naming::Phi => "PhiDecoderLayer",
            Naming::Gpt2 => "GPT2Block",
            Naming::Vit => "ViTLayer",
            Naming::Sam => "SamVisionLayer",
            // accelerate's `fsdp_transformer_layer_cls_to_wrap` takes a comma-separated list.
            Naming::Whisper => "WhisperEncoderLayer,WhisperDecoderLayer",
            Naming::Bert => "BertLayer",
            Naming::Siglip => "SiglipEncoderLayer",
            Naming::Clip => "CLIPEncoderLayer",
            Naming::QwenV1 => "QWenBlock",
            Naming::Llama => match preset.unwrap_or("") {
                p if p.starts_with("mistral") => "MistralDecoderLayer",
                p if p.starts_with("qwen2") => "Qwen2DecoderLayer",
                p if p.starts_with("gemma-2") => "Gemma2DecoderLayer",
                p if p.starts_with("gemma") => "GemmaDecoderLayer",
                _ => "LlamaDecoderLayer",
            },
        }
    }

    /// PEFT `target_modules` for the query's targets, with a warning when a fused module
    /// forces more (or the name is ambiguous).
    pub(super) fn peft_targets(self, q: &Query) -> (Vec<&'static str>, Option<Note>) {
        use TargetModule as T;
        let mut p = Picker { q, out: Vec::new(), note: None };
        match self {
            Naming::Llama
            | Naming::Mixtral
            | Naming::Phi3
            | Naming::Phi
            | Naming::Clip
            | Naming::Siglip
            | Naming::Whisper
            | Naming::Vit => self.decoder_targets(&mut p),
            Naming::Gpt2 => {
                p.fused(&[T::Q, T::K, T::V], "c_attn", &["q", "k", "v"]);
                p.add(T::O, "attn.c_proj");
                p.add(T::Up, "mlp.c_fc");
                p.add(T::Down, "mlp.c_proj");
            }
            Naming::QwenV1 => {
                p.fused(&[T::Q, T::K, T::V], "c_attn", &["q", "k", "v"]);
                p.add(T::O, "attn.c_proj");
                p.add(T::Gate, "w2");
                p.add(T::Up, "w1");
                p.add(T::Down, "mlp.c_proj");
            }
            Naming::Bert => bert_targets(&mut p),
            Naming::Sam => {
                p.fused(&[T::Q, T::K, T::V], "qkv", &["q", "k", "v"]);
                p.add(T::O, "proj");
                p.add(T::Up, "lin1");
                p.add(T::Down, "lin2");
            }
        }
        (p.out, p.note)
    }

    /// The Llama-style decoders (and Mixtral's experts, Phi-3's fused linears, phi-1.5's names).
    fn decoder_targets(self, p: &mut Picker) {
        use TargetModule as T;
        match self {
            Naming::Phi3 => p.fused(&[T::Q, T::K, T::V], "qkv_proj", &["q", "k", "v"]),
            _ => {
                p.add(T::Q, "q_proj");
                p.add(T::K, "k_proj");
                p.add(T::V, "v_proj");
            }
        }
        p.add(
            T::O,
            match self {
                Naming::Phi => "dense",
                Naming::Clip | Naming::Siglip | Naming::Whisper => "out_proj",
                _ => "o_proj",
            },
        );
        match self {
            Naming::Phi3 => p.fused(&[T::Gate, T::Up], "gate_up_proj", &["gate", "up"]),
            Naming::Mixtral => {
                p.add(T::Gate, "w1");
                p.add(T::Up, "w3");
            }
            Naming::Phi | Naming::Clip | Naming::Siglip | Naming::Vit | Naming::Whisper => p.add(T::Up, "fc1"),
            _ => {
                p.add(T::Gate, "gate_proj");
                p.add(T::Up, "up_proj");
            }
        }
        let down = match self {
            Naming::Mixtral => "w2",
            Naming::Phi | Naming::Clip | Naming::Siglip | Naming::Vit | Naming::Whisper => "fc2",
            _ => "down_proj",
        };
        p.add(T::Down, down);
    }

    /// Names of the embedding and LM head, for PEFT `modules_to_save` (trained in full).
    pub(super) fn full_modules(self, q: &Query) -> Vec<&'static str> {
        let mut out = Vec::new();
        if q.targets.contains(TargetModule::Embed) {
            out.push(match self {
                Naming::Gpt2 => "wte",
                Naming::Bert => "word_embeddings",
                Naming::QwenV1 => "wte",
                _ => "embed_tokens",
            });
        }
        if q.targets.contains(TargetModule::LmHead) && self != Naming::Bert {
            out.push("lm_head");
        }
        out
    }
}

fn bert_targets(p: &mut Picker) {
    use TargetModule as T;
    p.add(T::Q, "query");
    p.add(T::K, "key");
    p.add(T::V, "value");
    p.add(T::O, "attention.output.dense");
    p.add(T::Up, "intermediate.dense");
    if p.has(T::Down) {
        // PEFT matches by name suffix: "output.dense" also matches attention.output.dense.
        p.out.push("output.dense");
        if !p.has(T::O) {
            p.note = Some(Note::TargetsBertOutput);
        }
    }
}

/// Collects PEFT module names for the query's targets, and the note of the last fused module
/// that adapts more than was chosen.
struct Picker<'a> {
    q: &'a Query,
    out: Vec<&'static str>,
    note: Option<Note>,
}

impl Picker<'_> {
    fn has(&self, t: TargetModule) -> bool {
        self.q.targets.contains(t)
    }
    /// `name` when `t` is targeted.
    fn add(&mut self, t: TargetModule, name: &'static str) {
        if self.has(t) {
            self.out.push(name);
        }
    }
    /// One fused linear `name` holding `parts`: named when any part is targeted, with a note
    /// when only some are (LoRA on it adapts all of them).
    fn fused(&mut self, parts: &[TargetModule], name: &'static str, what: &'static [&'static str]) {
        let n = parts.iter().filter(|t| self.has(**t)).count();
        if n > 0 {
            self.out.push(name);
            if n < parts.len() {
                // memory/trainable.rs counts a fused q, k and v as one module under the
                // Trainer-based frameworks.
                let counted = self.q.framework.runs_hf_trainer() && parts.contains(&TargetModule::Q);
                self.note = Some(Note::TargetsFused { parts: what, module: name, counted });
            }
        }
    }
}
