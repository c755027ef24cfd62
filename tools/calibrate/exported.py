"""Runs the train.py that `tunefit export --framework hf` writes, for two optimizer steps on the
CPU, against a local stand-in checkpoint: what image_export_check.py and
speech_export_check.py share."""

import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "tunefit"


def run_two_steps(query, model_dir, data, prelude):
    """The export of `query` with its MODEL_ID set to `model_dir`, its dataset placeholder
    replaced by the Python line `data`, `prelude` (imports) ahead of it, two steps on the CPU
    into `model_dir`/out. Returns the script's globals (`model`, `trainer`)."""
    script = subprocess.run([str(CLI), "export", "--framework", "hf", query], check=True, capture_output=True,
                            text=True).stdout
    py = script.split("==> train.py (python) <==\n", 1)[1].split("\n==> ", 1)[0]
    py = re.sub(r'MODEL_ID = ".*"', f"MODEL_ID = {str(model_dir)!r}", py)
    py = re.sub(r"train_dataset = \.\.\..*", data, py)
    py = py.replace("report_to=\"none\",", "report_to=\"none\", max_steps=2, use_cpu=True,")
    py = py.replace("output_dir=\"out\"", f"output_dir={str(model_dir) + '/out'!r}")
    env = {"__name__": "__main__"}
    exec(compile(prelude + "\n" + py, f"train.py for {query}", "exec"), env)
    trainer = env["trainer"]
    assert trainer.state.global_step == 2, trainer.state.global_step
    print(f"ok: {query}: {trainer.state.global_step} steps, loss {trainer.state.log_history[-1].get('train_loss')}")
    return env
