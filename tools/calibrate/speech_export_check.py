"""Runs the Whisper train.py that `tunefit export --framework hf` writes against the real
transformers, PEFT and Seq2SeqTrainer, on the CPU.

Each case's checkpoint is replaced by a two-block Whisper of the same class saved to a
temporary directory (no download) with a real `WhisperProcessor`: the feature extractor at the
checkpoint's mel bins and a byte-level tokenizer written here (every byte a token, Whisper's
special tokens after them). The dataset placeholder becomes eight random clips with
transcripts. The script then runs as exported for two optimizer steps: the model and
processor classes, the LoRA target names over the encoder's and the decoder's attentions,
freeze's decoder blocks, non-reentrant gradient checkpointing and PEFT's hook on the first
convolution (the estimate's assumption), the
collator's features and label padding and `Seq2SeqTrainingArguments` are what is checked (a wrong keyword
or module name raises).

Usage: tools/calibrate/.venv/bin/python tools/calibrate/speech_export_check.py
(needs target/release/tunefit: cargo build --release -p tunefit-cli)
"""

import json
import pathlib
import sys
import tempfile

import numpy as np
import torch
from transformers.convert_slow_tokenizer import bytes_to_unicode  # GPT-2's byte alphabet
from transformers import (
    WhisperConfig,
    WhisperFeatureExtractor,
    WhisperForConditionalGeneration,
    WhisperProcessor,
    WhisperTokenizer,
)

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from exported import CLI, run_two_steps  # noqa: E402


SPECIALS = ["<|endoftext|>", "<|startoftranscript|>", "<|en|>", "<|translate|>", "<|transcribe|>",
            "<|startoflm|>", "<|startofprev|>", "<|nocaptions|>", "<|notimestamps|>"]


def tiny(d, mels):
    """A two-block Whisper and its processor, saved to `d`."""
    vocab = {c: i for i, c in enumerate(bytes_to_unicode().values())}
    for s in SPECIALS:
        vocab[s] = len(vocab)
    pathlib.Path(d, "vocab.json").write_text(json.dumps(vocab))
    pathlib.Path(d, "merges.txt").write_text("#version: 0.2\n")
    tok = WhisperTokenizer(str(pathlib.Path(d, "vocab.json")), str(pathlib.Path(d, "merges.txt")),
                           unk_token="<|endoftext|>", bos_token="<|endoftext|>", eos_token="<|endoftext|>",
                           pad_token="<|endoftext|>")
    tok.add_special_tokens({"additional_special_tokens": SPECIALS[1:]})
    processor = WhisperProcessor(WhisperFeatureExtractor(feature_size=mels), tok)
    ids = {s: tok.convert_tokens_to_ids(s) for s in SPECIALS}
    cfg = WhisperConfig(vocab_size=len(tok), num_mel_bins=mels, d_model=64, encoder_layers=2, decoder_layers=2,
                        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=128,
                        decoder_ffn_dim=128, pad_token_id=ids["<|endoftext|>"], bos_token_id=ids["<|endoftext|>"],
                        eos_token_id=ids["<|endoftext|>"], decoder_start_token_id=ids["<|startoftranscript|>"])
    model = WhisperForConditionalGeneration(cfg)
    model.save_pretrained(d)
    processor.save_pretrained(d)


CASES = [
    # (query, mel bins of the checkpoint)
    ("v=2&model=whisper-small&method=lora&targets=q,v&rank=8&batch=4&seq=32&precision=fp32&optim=adamw", 80),
    ("v=2&model=whisper-large-v3&method=lora&targets=q,k,v,o,up,down&rank=8&batch=4&seq=32&precision=fp32&optim=adamw&ckpt=none", 128),
    ("v=2&model=whisper-small&method=full&batch=4&seq=32&precision=fp32&optim=adamw", 80),
    ("v=2&model=whisper-medium&method=freeze&train_layers=1&batch=4&seq=32&precision=fp32&optim=adamw", 80),
    ("v=2&model=whisper-large-v3-turbo&method=dora&targets=q,v&rank=8&batch=4&seq=32&precision=fp32&optim=adamw", 128),
]


def run(query, mels):
    with tempfile.TemporaryDirectory() as d:
        tiny(d, mels)
        data = (
            "train_dataset = [{'audio': {'array': np.random.randn(16000 * (1 + i % 3)).astype(np.float32), "
            "'sampling_rate': 16000}, 'sentence': 'clip number %d' % i} for i in range(8)]"
        )
        env = run_two_steps(query, d, data, "import numpy as np")
        model = env["model"]
        adapted = [n for n, _ in model.named_modules() if n.endswith("lora_A")]
        if "method=lora" in query or "method=dora" in query:
            # PEFT's names reach the encoder's blocks and the decoder's cross-attention alike.
            assert any(".encoder.layers." in n for n in adapted), adapted
            assert any(".encoder_attn." in n for n in adapted), adapted
        # Under checkpointing PEFT hooks conv1 so that its output requires grad
        # (`enable_input_require_grads`); the estimate counts what the frozen convolutions then
        # keep (memory/speech.rs), and nothing without checkpointing.
        conv1 = next(m for n, m in model.named_modules() if n.endswith("encoder.conv1"))
        peft_ckpt = "ckpt=none" not in query and any(f"method={m}" in query for m in ("lora", "dora", "qlora"))
        assert bool(conv1._forward_hooks) == peft_ckpt, (query, conv1._forward_hooks)
        trained = [n for n, p in model.named_parameters() if p.requires_grad]
        if "method=freeze" in query:
            assert trained and all(n.startswith("model.decoder.layers.1.") for n in trained), trained


if __name__ == "__main__":
    if not CLI.exists():
        sys.exit(f"{CLI} is missing: cargo build --release -p tunefit-cli")
    torch.manual_seed(0)
    for case in CASES:
        run(*case)
