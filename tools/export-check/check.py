#!/usr/bin/env python3
"""Feeds `tunefit export` files to the real frameworks (tools/export-check/README.md).

Run by run.sh, once per framework, inside that framework's venv:

  check.py assets --out DIR                      build the tiny model, tokenizers and data (hf venv)
  check.py run --framework F --tunefit BIN --assets DIR --work DIR [--methods lora,qlora] [--no-train]
                                                  one JSON line per method on stdout
  check.py table RESULTS.jsonl                    the results as a Markdown table

Nothing here reaches a hub: HF_HUB_OFFLINE=1 is set, the model and tokenizer are built
locally and random. Every edit made to an exported file before it is fed to the framework is
listed in the result ("edits"), so a pass says exactly what was changed. Not part of the
project's test command.
"""
import argparse
import base64
import importlib.metadata as md
import json
import os
import re
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("WANDB_DISABLED", "true")

# The export queries: Q1–Q3 of the 2026-12-02 check plus DoRA and freeze.
BASE = "model=llama-3.1-8b&batch=2&seq=512"
METHODS = {
    "lora": "method=lora&rank=16&targets=all",
    "qlora": "method=qlora&rank=16",
    "full": "method=full&batch=1&gpus=2&shard=fsdp",
    "dora": "method=dora&rank=8&targets=q,k,v,o",
    "freeze": "method=freeze&train_layers=1",
}
# Methods each framework has (the others only warn and run something else).
FRAMEWORK_METHODS = {
    "hf": ["lora", "qlora", "full", "dora", "freeze"],
    "torchtune": ["lora", "qlora", "full", "dora"],
    "litgpt": ["lora", "qlora", "full"],
    "unsloth": ["lora", "qlora", "full"],
    "axolotl": ["lora", "qlora", "full", "dora", "freeze"],
    "llama-factory": ["lora", "qlora", "full", "dora", "freeze"],
}
PACKAGES = {
    "hf": ["torch", "transformers", "peft", "accelerate", "bitsandbytes"],
    "torchtune": ["torchtune", "torchao", "torch", "omegaconf"],
    "litgpt": ["litgpt", "lightning", "jsonargparse", "torch", "bitsandbytes"],
    "unsloth": ["unsloth", "unsloth_zoo", "torch", "transformers", "trl", "peft", "bitsandbytes"],
    "axolotl": ["axolotl", "torch", "transformers", "peft", "trl", "accelerate", "bitsandbytes"],
    "llama-factory": ["llamafactory", "torch", "transformers", "peft", "trl", "accelerate", "bitsandbytes"],
}

# Tiny Llama: every weight's element count divides by 64*256 (torchao NF4's block sizes), so
# the same model serves torchtune's QLoRA. Vocab 128,256 with Llama 3's special tokens at
# 128000+, as the real checkpoints have them.
TINY = dict(hidden=128, layers=2, heads=4, kv_heads=4, ffn=256, vocab=128256, n_regular=128000)
SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>"] + [f"<|reserved_special_token_{i}|>" for i in range(2)] + \
    ["<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>"]


def sh(cmd, cwd=None, timeout=1800, env=None):
    """Runs a shell command; (ok, last lines of output)."""
    e = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=e)
    out = (p.stdout + p.stderr).strip()
    return p.returncode == 0, out


def first_error(text):
    """The line that says what failed (the last Error/Exception line of a traceback)."""
    lines = [l for l in text.splitlines() if re.search(r"(Error|Exception|error:)", l)]
    return (lines[-1] if lines else text.splitlines()[-1] if text else "").strip()[:400]


def versions(fw):
    out = {}
    for p in PACKAGES[fw]:
        try:
            out[p] = md.version(p)
        except md.PackageNotFoundError:
            pass
    return out


# ---------------------------------------------------------------------------------------------
# Assets (built once, in the hf venv).
# ---------------------------------------------------------------------------------------------

def byte_table():
    """GPT-2's byte-to-unicode map (byte-level BPE's alphabet)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


def build_assets(out):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
    from tokenizers import Tokenizer, models, pre_tokenizers, decoders

    out = Path(out)
    model_dir = out / "tiny-llama"
    model_dir.mkdir(parents=True, exist_ok=True)
    t = TINY
    # Byte-level BPE: 256 byte tokens, never-produced fillers up to 128000, specials after.
    table = byte_table()
    vocab = {table[b]: b for b in range(256)}
    for i in range(256, t["n_regular"]):
        vocab[f"<filler_{i}>"] = i
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = SPECIALS + [f"<|reserved_special_token_{i}|>" for i in range(2, 2 + t["vocab"] - t["n_regular"] - len(SPECIALS))]
    tok.add_special_tokens(specials)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|begin_of_text|>", eos_token="<|end_of_text|>", pad_token="<|finetune_right_pad_id|>")
    fast.save_pretrained(model_dir)
    # tiktoken file for torchtune's llama3_tokenizer: the same 256 bytes, then 2-byte fillers
    # (never produced: their halves have no merge path below them), 128000 ranks in all.
    orig = model_dir / "original"
    orig.mkdir(exist_ok=True)
    with open(orig / "tokenizer.model", "w") as f:
        rank = 0
        for b in range(256):
            f.write(f"{base64.b64encode(bytes([b])).decode()} {rank}\n")
            rank += 1
        a = 0
        while rank < t["n_regular"]:
            f.write(f"{base64.b64encode(bytes([0xF8 + a // 65536 % 8, a // 256 % 256, a % 256])).decode()} {rank}\n")
            a += 1
            rank += 1
    cfg = LlamaConfig(hidden_size=t["hidden"], num_hidden_layers=t["layers"], num_attention_heads=t["heads"],
                      num_key_value_heads=t["kv_heads"], intermediate_size=t["ffn"], vocab_size=t["vocab"],
                      max_position_embeddings=2048, bos_token_id=128000, eos_token_id=128001, tie_word_embeddings=False,
                      rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                    "original_max_position_embeddings": 1024})
    torch.manual_seed(0)
    LlamaForCausalLM(cfg).save_pretrained(model_dir)
    # 32 instruction rows: alpaca JSON (torchtune, litgpt, axolotl, LLaMA-Factory) and text JSONL.
    rows = [{"instruction": f"Add {i} and {i + 1}.", "input": "", "output": f"{2 * i + 1}"} for i in range(32)]
    (out / "alpaca.json").write_text(json.dumps(rows))
    (out / "alpaca.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (out / "text.jsonl").write_text("".join(json.dumps({"text": f"{r['instruction']} {r['output']}"}) + "\n" for r in rows))
    lf = out / "lf_data"
    lf.mkdir(exist_ok=True)
    shutil.copy(out / "alpaca.json", lf / "alpaca.json")
    (lf / "dataset_info.json").write_text(json.dumps({"alpaca_en_demo": {"file_name": "alpaca.json"}}))
    print(json.dumps({"assets": str(out), "model": str(model_dir)}))


# ---------------------------------------------------------------------------------------------
# Per-framework checks. Each returns (validate_ok, validate_msg, train_ok|None, train_msg, edits).
# ---------------------------------------------------------------------------------------------

def export_files(tunefit, fw, query, work):
    p = subprocess.run([tunefit, "export", "--framework", fw, "--json", query], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"tunefit export failed: {p.stderr.strip()}")
    e = json.loads(p.stdout)
    work.mkdir(parents=True, exist_ok=True)
    files = {}
    for f in e["files"]:
        (work / f["name"]).write_text(f["content"])
        files[f["name"]] = f["content"]
    return files, [w["code"] for w in e["warnings"]]


def yaml_load(text):
    import yaml
    return yaml.safe_load(text)


def yaml_dump(obj, path):
    import yaml
    Path(path).write_text(yaml.safe_dump(obj, sort_keys=False))


def py_edit(src, pattern, repl, edits, what):
    new, n = re.subn(pattern, repl, src, count=1, flags=re.S)
    if n == 0:
        raise RuntimeError(f"edit not applicable: {what}")
    edits.append(what)
    return new


def validate_script(src, work):
    """Runs a Python export up to and including Trainer(...), without train()."""
    (work / "validate.py").write_text(src.replace("trainer.train()", "print('validated')"))
    return sh(f"{sys.executable} validate.py", cwd=work)


def trained(what, ok, out, edits):
    """The row of a file that validated (`what`) and was then run for 2 steps."""
    return True, what, ok, "2 steps" if ok else first_error(out), edits


def check_hf(files, method, a, work, train):
    edits = []
    src = files["train.py"]
    src = py_edit(src, r'MODEL_ID = "[^"]*"', f'MODEL_ID = "{a / "tiny-llama"}"', edits, "MODEL_ID -> tiny model")
    src = py_edit(src, r"train_dataset = \.\.\.[^\n]*",
                  "train_dataset = [{'input_ids': tokenizer(l)['input_ids'][:MAX_SEQ_LENGTH]} for l in open("
                  f"'{a / 'text.jsonl'}').read().splitlines()]", edits, "train_dataset -> local rows")
    src = py_edit(src, r"args = TrainingArguments\(\n", "args = TrainingArguments(\n    use_cpu=True,\n    max_steps=2,\n", edits,
                  "CPU: use_cpu=True; test: max_steps=2")
    ok, msg = True, ""
    if "accelerate_fsdp.yaml" in files:
        ok, msg = sh(f"{sys.executable} -c \"from accelerate.commands.config.config_args import load_config_from_file as l; "
                     f"c = l('{work / 'accelerate_fsdp.yaml'}'); print(c.distributed_type, c.num_processes, c.fsdp_config)\"")
        if not ok:
            return False, first_error(msg), None, "", edits
    # Validate: everything up to and including Trainer(...), without train().
    ok, out = validate_script(src, work)
    if not ok:
        return False, first_error(out), None, "", edits
    if not train:
        return True, "TrainingArguments/PEFT/Trainer built", None, "", edits
    (work / "train.py").write_text(src)
    if "accelerate_fsdp.yaml" in files:
        ok, out = run_fsdp_on_cpu(files, work, edits)
    else:
        ok, out = sh(f"{sys.executable} train.py", cwd=work)
    return trained("TrainingArguments/PEFT/Trainer built", ok, out, edits)


def run_fsdp_on_cpu(files, work, edits):
    """accelerate refuses sync_module_states on CPU (which cpu_ram_efficient_loading forces
    on): turn both off, then run the exported launch.sh."""
    acc = yaml_load(files["accelerate_fsdp.yaml"])
    acc["fsdp_config"]["fsdp_sync_module_states"] = False
    acc["fsdp_config"]["fsdp_cpu_ram_efficient_loading"] = False
    yaml_dump(acc, work / "accelerate_fsdp.yaml")
    edits.append("CPU: fsdp_sync_module_states/fsdp_cpu_ram_efficient_loading false")
    return sh("bash launch.sh", cwd=work)


def check_llama_factory(files, method, a, work, train):
    edits = []
    cfg = yaml_load(files["llamafactory.yaml"])
    cfg["model_name_or_path"] = str(a / "tiny-llama")
    cfg["dataset_dir"] = str(a / "lf_data")
    edits.append("model_name_or_path -> tiny model; dataset_dir -> a folder whose dataset_info.json names alpaca_en_demo")
    cfg["output_dir"] = str(work / "saves")
    cfg["use_cpu"] = True
    cfg["max_steps"] = 2
    edits.append("CPU: use_cpu; test: max_steps=2, output_dir")
    yaml_dump(cfg, work / "llamafactory.yaml")
    code = ("import sys, yaml; from llamafactory.hparams import get_train_args; "
            f"get_train_args(yaml.safe_load(open('{work / 'llamafactory.yaml'}'))); print('validated')")
    ok, out = sh(f"{sys.executable} -c \"{code}\"", cwd=work)
    if not ok:
        return False, first_error(out), None, "", edits
    if not train:
        return True, "get_train_args accepted every key", None, "", edits
    if "accelerate_fsdp.yaml" in files:
        ok, out = run_fsdp_on_cpu(files, work, edits)
    else:
        ok, out = sh("llamafactory-cli train llamafactory.yaml", cwd=work)
    return trained("get_train_args accepted every key", ok, out, edits)


def check_torchtune(files, method, a, work, train):
    edits = []
    sh_text = files["launch.sh"]
    m = re.search(r"--output-dir (\S+)", sh_text)
    dl = Path(m.group(1))
    # The export's own download folder, made to hold the tiny model (D1: the overrides must
    # point there). Only created when absent.
    if not dl.exists():
        dl.symlink_to(a / "tiny-llama")
        edits.append(f"{dl} -> tiny model (the export's download folder)")
    config = re.search(r"--config (\S+)", sh_text).group(1)
    recipe = re.search(r"tune run (?:--\S+ \S+ )*(\S+) --config", sh_text).group(1)
    ok, out = sh(f"tune cp {config} base.yaml --make-parents", cwd=work)
    if not ok:
        return False, first_error(out), None, "", edits
    from omegaconf import OmegaConf
    cfg = OmegaConf.merge(OmegaConf.load(work / "base.yaml"), OmegaConf.create(files["torchtune_overrides.yaml"]))
    t = TINY
    lora = "lora_" in str(cfg.model._component_)
    builder = "torchtune.models.llama3_1." + ("lora_llama3_1" if lora else "llama3_1")
    cfg.model._component_ = builder
    for k, v in dict(vocab_size=t["vocab"], num_layers=t["layers"], num_heads=t["heads"], num_kv_heads=t["kv_heads"],
                     embed_dim=t["hidden"], intermediate_dim=t["ffn"], max_seq_len=2048).items():
        cfg.model[k] = v
    cfg.checkpointer.checkpoint_files = ["model.safetensors"]
    edits.append("model._component_ -> generic llama3_1 builder with the tiny dims; checkpoint_files -> [model.safetensors]")
    cfg.dataset = {"_component_": "torchtune.datasets.alpaca_dataset", "source": "json", "data_files": str(a / "alpaca.json"),
                   "split": "train", "packed": cfg.dataset.get("packed", False)}
    cfg.output_dir = str(work / "out")
    cfg.device = "cpu"
    cfg.epochs = 1
    cfg.max_steps_per_epoch = 2
    cfg.log_peak_memory_stats = False
    edits.append("dataset -> alpaca_dataset source=json; CPU: device=cpu, log_peak_memory_stats=False; test: epochs=1 max_steps_per_epoch=2")
    OmegaConf.save(cfg, work / "merged.yaml")
    ok, out = sh("tune validate merged.yaml", cwd=work)
    if not ok:
        return False, first_error(out), None, "", edits
    if not train:
        return True, "tune validate: well-formed", None, "", edits
    nproc = re.search(r"--nproc_per_node (\d+)", sh_text)
    launcher = f"tune run --nproc_per_node {nproc.group(1)}" if nproc else "tune run"
    ok, out = sh(f"{launcher} {recipe} --config merged.yaml", cwd=work)
    return trained("tune validate: well-formed", ok, out, edits)


def litgpt_checkpoint(a):
    """A litgpt copy of the tiny model (model_config.yaml + lit_model.pth + tokenizer)."""
    d = a / "tiny-litgpt"
    if (d / "lit_model.pth").exists():
        return d
    import torch
    import yaml
    from dataclasses import asdict
    from litgpt import Config, GPT
    t = TINY
    c = Config(name="tiny-llama", block_size=2048, vocab_size=t["vocab"], padded_vocab_size=t["vocab"], n_layer=t["layers"],
               n_head=t["heads"], n_query_groups=t["kv_heads"], n_embd=t["hidden"], intermediate_size=t["ffn"], bias=False,
               parallel_residual=False, rotary_percentage=1.0, norm_class_name="RMSNorm", mlp_class_name="LLaMAMLP", norm_eps=1e-5)
    d.mkdir(parents=True, exist_ok=True)
    (d / "model_config.yaml").write_text(yaml.safe_dump(asdict(c)))
    torch.save(GPT(c).state_dict(), d / "lit_model.pth")
    for f in ["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]:
        if (a / "tiny-llama" / f).exists():
            shutil.copy(a / "tiny-llama" / f, d / f)
    return d


def check_litgpt(files, method, a, work, train):
    edits = []
    line = [l for l in files["finetune.sh"].splitlines() if l.startswith("litgpt finetune")]
    cmd = files["finetune.sh"].split("\n", 3)[-1]  # after the header lines
    cmd = "\n".join(l for l in cmd.splitlines() if not l.startswith("litgpt download"))
    edits.append("litgpt download skipped (no hub)")
    ok, out = sh(cmd.rstrip().rstrip("\\") + " --print_config", cwd=work)
    if not ok:
        return False, first_error(out), None, "", edits
    if not train:
        return True, "--print_config accepted every flag", None, "", edits
    ckpt = litgpt_checkpoint(a)
    name = line[0].split()[2]
    run = cmd.replace(f" {name} ", f" {ckpt} ", 1).rstrip()
    run += f" \\\n  --data JSON --data.json_path {a / 'alpaca.json'} --data.val_split_fraction 0.1 --train.max_steps 2 --out_dir {work / 'out'}"
    edits.append("checkpoint -> tiny litgpt copy; --data JSON; test: --train.max_steps 2")
    ok, out = sh(run, cwd=work)
    return trained("--print_config accepted every flag", ok, out, edits)


def check_unsloth(files, method, a, work, train):
    edits = []
    src = files["train_unsloth.py"]
    src = py_edit(src, r'model_name="[^"]*"', f'model_name="{a / "tiny-llama"}"', edits, "model_name -> tiny model")
    src = py_edit(src, r"train_dataset = \.\.\.[^\n]*",
                  f"from datasets import load_dataset\ntrain_dataset = load_dataset('json', data_files='{a / 'text.jsonl'}', split='train')",
                  edits, "train_dataset -> local text rows")
    src = py_edit(src, r"args=SFTConfig\(\n", "args=SFTConfig(\n        max_steps=2,\n", edits, "test: max_steps=2")
    ok, out = validate_script(src, work)
    if not ok:
        return False, first_error(out), None, "", edits
    if not train:
        return True, "from_pretrained/get_peft_model/SFTTrainer built", None, "", edits
    (work / "train.py").write_text(src)
    ok, out = sh(f"{sys.executable} train.py", cwd=work)
    return trained("from_pretrained/get_peft_model/SFTTrainer built", ok, out, edits)


def check_axolotl(files, method, a, work, train):
    edits = []
    cfg = yaml_load(files["axolotl.yaml"])
    cfg["base_model"] = str(a / "tiny-llama")
    cfg["datasets"] = [{"path": str(a / "alpaca.jsonl"), "ds_type": "json", "type": "alpaca"}]
    cfg["output_dir"] = str(work / "out")
    edits.append("base_model -> tiny model; datasets placeholder -> local alpaca JSONL")
    yaml_dump(cfg, work / "axolotl.yaml")
    n_gpu = 2 if "fsdp_config" in cfg or "deepspeed" in cfg else 1
    code = ("import yaml; from axolotl.utils.config import validate_config; from axolotl.utils.dict import DictDefault; "
            f"validate_config(DictDefault(yaml.safe_load(open('{work / 'axolotl.yaml'}'))), "
            f"capabilities={{'bf16': True, 'fp8': False, 'n_gpu': {n_gpu}, 'n_node': 1, 'compute_capability': 'sm_90'}}, "
            "env_capabilities={'torch_version': __import__('torch').__version__}); print('validated')")
    ok, out = sh(f"{sys.executable} -c \"{code}\"", cwd=work)
    if not ok:
        return False, first_error(out), None, "", edits
    if not train:
        return True, "validate_config (1-2x sm_90, bf16)", None, "", edits
    cfg["attn_implementation"] = "sdpa"
    cfg["bf16"] = False
    cfg["max_steps"] = 2
    edits.append("CPU: attn_implementation sdpa (no flash-attn), bf16 false; test: max_steps=2")
    yaml_dump(cfg, work / "axolotl.yaml")
    launcher = " --launcher torchrun -- --nproc_per_node 2" if n_gpu > 1 else ""
    ok, out = sh(f"axolotl train axolotl.yaml{launcher}", cwd=work)
    return trained("validate_config (1-2x sm_90, bf16)", ok, out, edits)


CHECKS = {"hf": check_hf, "llama-factory": check_llama_factory, "torchtune": check_torchtune,
          "litgpt": check_litgpt, "unsloth": check_unsloth, "axolotl": check_axolotl}


def run(args):
    a = Path(args.assets).resolve()
    methods = args.methods.split(",") if args.methods else FRAMEWORK_METHODS[args.framework]
    for m in methods:
        query = f"{BASE}&{METHODS[m]}"
        work = Path(args.work).resolve() / args.framework / m
        shutil.rmtree(work, ignore_errors=True)
        rec = {"framework": args.framework, "method": m, "query": query, "versions": versions(args.framework),
               "python": sys.version.split()[0]}
        try:
            files, warnings = export_files(args.tunefit, args.framework, query, work)
            rec["warnings"] = warnings
            v_ok, v_msg, t_ok, t_msg, edits = CHECKS[args.framework](files, m, a, work, not args.no_train)
            rec.update(validate=v_ok, validate_msg=v_msg, train=t_ok, train_msg=t_msg, edits=edits)
        except Exception as e:  # the check itself failed: said, not hidden
            rec.update(validate=False, validate_msg=f"check error: {e!r}", train=None, train_msg="", edits=[],
                       trace=traceback.format_exc()[-1500:])
        print(json.dumps(rec), flush=True)


def table(path):
    rows = [json.loads(l) for l in Path(path).read_text().splitlines() if l.strip()]
    mark = lambda v: "✓" if v is True else "✗" if v is False else "–"
    print("| framework | method | parses / validates | 2 steps on CPU | message | edits |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        msg = r.get("validate_msg", "") if r.get("validate") is not True else r.get("train_msg", "") or r.get("validate_msg", "")
        print(f"| {r['framework']} | {r['method']} | {mark(r.get('validate'))} | {mark(r.get('train'))} | "
              f"{msg.replace('|', '/')} | {'; '.join(r.get('edits', [])).replace('|', '/')} |")
    seen = {}
    for r in rows:
        seen.setdefault(r["framework"], (r.get("versions", {}), r.get("python", "?")))
    print()
    for fw, (v, py) in seen.items():
        print(f"- {fw} (Python {py}): " + ", ".join(f"{k} {x}" for k, x in v.items()))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("assets")
    s.add_argument("--out", required=True)
    s = sub.add_parser("run")
    s.add_argument("--framework", required=True, choices=sorted(CHECKS))
    s.add_argument("--tunefit", required=True)
    s.add_argument("--assets", required=True)
    s.add_argument("--work", required=True)
    s.add_argument("--methods", default="")
    s.add_argument("--no-train", action="store_true")
    s = sub.add_parser("table")
    s.add_argument("results")
    args = p.parse_args()
    if args.cmd == "assets":
        build_assets(args.out)
    elif args.cmd == "run":
        run(args)
    else:
        table(args.results)


if __name__ == "__main__":
    main()
