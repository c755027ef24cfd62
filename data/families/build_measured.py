#!/usr/bin/env python3
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
D = "huggingface/diffusers@58eb52c0803ea9af3abec60841c2a093bdf1f951"
SS = "kohya-ss/sd-scripts@48d368fa557731ad0488c07304dfeba8c07910eb"
SS_OLD = "kohya-ss/sd-scripts@6abacf04da756808ffca567f6660445ecdf478bd (sd3 branch README, 2024-09-02)"
CV = "THUDM/CogVideo@e519eced782c08db81f45e5eb40baa45958087ae"
ST = "bghira/SimpleTuner@bc8e6ab7738ce457a2ed8eb2d26cadd91c6442cb"
MT = "kohya-ss/musubi-tuner@30c658c4f4b0bf05038b3346eff9670259b10fc7"
AT = "ostris/ai-toolkit@27a03a91f23eb1b757d5ec2e80ee3e129cfcc350"
DP = "tdrussell/diffusion-pipe@8f83dbf25d03219df705570ec03e62be04bc402f"
LT = "Lightricks/LTX-Video-Trainer@31b12733f51cb16b244d23f6552609f369aed883"
BLOG = "huggingface/blog@2ece681fdf41928fbaf103d702ff7af1da4352fc:flux-qlora.md"
SEG = f"{ST}:documentation/experimental/SEGMENTED_CHECKPOINTING.md"
READ = "2026-12-04"
cols = ["id", "source", "model", "trainer", "method", "lora_rank", "resolution", "frames", "batch", "grad_accum",
        "base_weights_dtype", "mixed_precision", "gradient_checkpointing", "text_encoder_handling", "latents_cached",
        "optimizer", "other_settings", "figure_gb", "figure_kind", "gpu", "software", "note", "date_read"]
R = []
def m(**k):
    k.setdefault("date_read", READ)
    R.append({c: k.get(c, "") for c in cols})

# ---------- HF blog flux-qlora (authoritative: blog source markdown)
common = dict(model="flux.1-dev", trainer="diffusers train_dreambooth_lora_flux_miniature.py (slightly modified)", method="LoRA (DreamBooth-style) on to_k,to_q,to_v,to_out.0",
              lora_rank="4", resolution="512x768", frames="", batch="1", grad_accum="4", mixed_precision="bf16", gradient_checkpointing="yes",
              text_encoder_handling="precomputed embeddings (T5 8-bit, max_sequence_length 77), encoders not loaded during training", latents_cached="yes (VAE deleted)",
              optimizer="AdamW 8-bit (bitsandbytes)", gpu="RTX 4090 24GB")
m(source=f"{BLOG} 'Memory Footprint (RTX 4090)'", base_weights_dtype="nf4 (bitsandbytes 4-bit)", figure_gb="9", figure_kind="peak VRAM ('approximately 9GB')",
  note="trainable 4,669,440 of 11,906,077,760 params; 700 steps ~41 min", **common)
m(source=f"{BLOG} 'Memory Footprint (RTX 4090)'", base_weights_dtype="bf16/fp16 (blog: 'base FLUX.1-dev in FP16')", figure_gb="26", figure_kind="VRAM consumed (peak implied)",
  note="'standard LoRA (with the base FLUX.1-dev in FP16) on the same setup consumed 26 GB VRAM' - exceeds the 4090's 24 GB, so the GPU for this figure is unclear", **common)
m(source=f"{BLOG}", model="flux.1-dev", trainer="n/a", method="full fine-tune (bf16)", figure_gb="120", figure_kind="estimate ('~120 GB VRAM with no memory optimizations'), not measured", note="estimate only")
m(source=f"{BLOG} 'FP8 Fine-tuning with torchao'", model="flux.1-dev", trainer="diffusers train_dreambooth_lora_flux.py + diffusers-torchao fp8 (--do_fp8_training)", method="LoRA",
  lora_rank="4", resolution="512x768", batch="1", grad_accum="1", base_weights_dtype="bf16 with torchao float8 training linears", mixed_precision="bf16", gradient_checkpointing="yes",
  text_encoder_handling="likely on GPU every step: --caption_column gives per-image prompts, and the diffusers script then re-encodes each batch with CLIP+T5 kept on GPU at weight_dtype (train_dreambooth_lora_flux.py L1244-1247, L1705-1709); the blog ran a modified gist, not verified",
  latents_cached="no (not passed)", optimizer="AdamW 8-bit", figure_gb="36.57", figure_kind="peak memory", gpu="H100 SXM", note="700 steps ~20 min")
# ---------- diffusers READMEs
m(source=f"{D}:examples/dreambooth/README_hidream.md L136-143 (numbers) with command L70-92", model="hidream-i1-dev", trainer="diffusers train_dreambooth_lora_hidream.py",
  method="LoRA", lora_rank="8", resolution="1024", batch="1", grad_accum="4", base_weights_dtype="nf4 (bnb 4-bit, quant_type nf4)", mixed_precision="bf16", gradient_checkpointing="yes",
  text_encoder_handling="embeddings pre-computed, text encoders offloaded (README note L62-64)", latents_cached="yes", optimizer="AdamW 8-bit",
  figure_gb="36.90", figure_kind="script log 'Memory (after backward)' (allocated, GB); after device placement 34.60", gpu="not stated",
  note="README does not restate whether the quantization numbers used exactly the example command; bnb model placed on GPU before placement (9.09 GB before)")
m(source=f"{D}:examples/dreambooth/README_hidream.md L141-143", model="hidream-i1-dev", trainer="diffusers train_dreambooth_lora_hidream.py", method="LoRA", lora_rank="8",
  resolution="1024", batch="1", grad_accum="4", base_weights_dtype="bf16", mixed_precision="bf16", gradient_checkpointing="yes", text_encoder_handling="pre-computed/offloaded",
  latents_cached="yes", optimizer="AdamW 8-bit", figure_gb="59.93", figure_kind="script log 'Memory (after backward)'; after device placement 57.64", gpu="not stated")
m(source=f"{D}:examples/dreambooth/README_flux.md L7-10", model="flux.1-dev", trainer="diffusers train_dreambooth_lora_flux.py", method="LoRA (all components trained)", lora_rank="16",
  figure_gb="40", figure_kind="lower bound ('can exceed 40GB of VRAM')", note="no resolution/batch given")
m(source=f"{D}:examples/research_projects/flux_lora_quantization/README.md L6-22 and command L48-69", model="flux.1-dev", trainer="diffusers train_dreambooth_lora_flux_miniature.py",
  method="QLoRA", lora_rank="4", resolution="1024", batch="1", grad_accum="4", base_weights_dtype="nf4", mixed_precision="fp16", gradient_checkpointing="yes",
  text_encoder_handling="embeddings precomputed (T5 in NF4), not loaded", latents_cached="yes", optimizer="AdamW 8-bit", figure_gb="24", figure_kind="fits in 24 GB (upper bound; 'tested ... on a 24GB 4090')", gpu="RTX 4090")
m(source=f"{D}:examples/dreambooth/README_sdxl.md L107-116 (flags) + command L79-104", model="sdxl", trainer="diffusers train_dreambooth_lora_sdxl.py", method="LoRA DreamBooth",
  lora_rank="4 (script default --rank)", resolution="1024", batch="1", grad_accum="4", base_weights_dtype="fp16 (weight_dtype), VAE fp32", mixed_precision="fp16", gradient_checkpointing="yes",
  text_encoder_handling="on GPU (script default)", latents_cached="no", optimizer="AdamW 8-bit", other_settings="xformers attention", figure_gb="16", figure_kind="fits under 16 GB (upper bound)")
m(source=f"{D}:examples/dreambooth/README.md L122-150", model="sd1.x (CompVis/stable-diffusion-v1-4)", trainer="diffusers train_dreambooth.py", method="full DreamBooth (UNet) + prior preservation",
  resolution="512", batch="1", grad_accum="2", gradient_checkpointing="yes", optimizer="AdamW 8-bit", text_encoder_handling="frozen on GPU", latents_cached="no",
  figure_gb="16", figure_kind="fits in 16 GB (upper bound)")
m(source=f"{D}:examples/dreambooth/README.md L155-160", model="sd1.x", trainer="diffusers train_dreambooth.py", method="full DreamBooth (UNet)", resolution="512", batch="1",
  gradient_checkpointing="yes", optimizer="AdamW 8-bit", other_settings="xformers + set_grads_to_none", figure_gb="12", figure_kind="fits in 12 GB (upper bound)")
m(source=f"{D}:examples/dreambooth/README.md L191-200", model="sd1.x", trainer="diffusers train_dreambooth.py", method="full DreamBooth (UNet)", mixed_precision="fp16",
  other_settings="DeepSpeed ZeRO-2 with parameter+optimizer offload to CPU (~25 GB host RAM)", figure_gb="8", figure_kind="under 8 GB (upper bound)")
m(source=f"{D}:examples/dreambooth/README.md L238", model="sd1.x", trainer="diffusers train_dreambooth.py", method="full DreamBooth UNet + text encoder",
  figure_gb="24", figure_kind="'needs at least 24GB VRAM' (lower bound)")
m(source=f"{D}:examples/text_to_image/README.md L54-75", model="sd1.x (CompVis/stable-diffusion-v1-4)", trainer="diffusers train_text_to_image.py", method="full fine-tune UNet + EMA (--use_ema)",
  resolution="512", batch="1", grad_accum="4", mixed_precision="fp16", gradient_checkpointing="yes", figure_gb="24", figure_kind="'should be possible ... on a single 24GB GPU' (upper bound)",
  note="EMA keeps a full fp32 copy of UNet params (README L178)")
m(source="huggingface/blog@1a18bdd230da5cb7d3de5dfaeb856c9d04d17bad:lora.md ('LoRA fine-tuning' section)", model="sd1.5", trainer="diffusers train_text_to_image_lora.py",
  method="LoRA (attention, UNet)", lora_rank="4 (script default at the time)", resolution="512", batch="1", grad_accum="4", mixed_precision="fp16", gradient_checkpointing="no (not passed)",
  optimizer="AdamW (no 8-bit)", figure_gb="11", figure_kind="runs 'in as low as 11 GB' (upper bound; 2080 Ti)", gpu="RTX 2080 Ti 11GB; also T4 16GB", note="2023-01 blog")
m(source=f"{D}:examples/research_projects/sd3_lora_colab/README.md L1-27", model="sd3-medium", trainer="diffusers train_dreambooth_sd3_lora_miniature.py", method="LoRA DreamBooth",
  mixed_precision="fp16", gradient_checkpointing="yes", optimizer="AdamW 8-bit", text_encoder_handling="embeddings precomputed with 8-bit T5 (~10.5 GB during embedding step); encoders not loaded in training",
  figure_gb="16", figure_kind="training under 16 GB (upper bound, free Colab T4)", note="text embedding step: ~20 GB in fp32, 12 GB in fp16 for the three encoders")
m(source=f"{D}:docs/source/en/training/cogvideox.md L278-291", model="cogvideox-2b", trainer="CogVideo (8xH100, ZeRO-2 automatically)", method="LoRA", batch="1", mixed_precision="fp16",
  figure_gb="47", figure_kind="fine-tuning VRAM consumption (per GPU, 8xH100)", note="same table: bs=2 LoRA 61 GB; SFT bs=1 62 GB; resolution not stated in row (model native 49x480x720)")
m(source=f"{D}:docs/source/en/training/cogvideox.md L278-291", model="cogvideox-5b", trainer="CogVideo (8xH100, ZeRO-2)", method="LoRA", batch="1", mixed_precision="bf16",
  figure_gb="63", figure_kind="fine-tuning VRAM consumption (per GPU)", note="bs=2 LoRA 80 GB; SFT bs=1 75 GB")
# ---------- CogVideo finetune README table
for mdl, meth, strat, prec, res, fig, gpu in [
        ("cogvideox-2b", "LoRA rank 128", "DDP", "fp16", "49x480x720", "16", "RTX 4080"),
        ("cogvideox-5b", "LoRA rank 128", "DDP", "bf16", "49x480x720", "24", "RTX 4090"),
        ("cogvideox1.5-5b", "LoRA rank 128", "DDP", "bf16", "81x768x1360", "35", "A100"),
        ("cogvideox-2b", "SFT (full)", "DDP", "fp16", "49x480x720", "36", "A100"),
        ("cogvideox-2b", "SFT (full)", "1-GPU ZeRO-2 + optimizer offload", "fp16", "49x480x720", "17", "RTX 4090"),
        ("cogvideox-5b", "SFT (full)", "1-GPU ZeRO-2 + optimizer offload", "bf16", "49x480x720", "42", "A100"),
        ("cogvideox-5b", "SFT (full)", "8-GPU ZeRO-3 + optimizer and param offload", "bf16", "49x480x720", "28", "RTX 5090"),
        ("cogvideox1.5-5b", "SFT (full)", "1-GPU ZeRO-2 + optimizer offload", "bf16", "81x768x1360", "56", "A100")]:
    f, h, w = res.split("x")
    m(source=f"{CV}:finetune/README.md L14-31 (Hardware Requirements)", model=mdl, trainer="CogVideo finetune (diffusers-based)", method=meth, lora_rank="128" if "LoRA" in meth else "",
      resolution=f"{h}x{w}", frames=f, mixed_precision=prec, other_settings=strat, figure_gb=fig, figure_kind="hardware requirement ('NN GB VRAM (GPU)'), treat as measured-ish upper bound",
      gpu=gpu, note="batch/checkpointing/optimizer not stated in table; README L124 warns SFT validation can exceed 24 GB")
# ---------- kohya sd-scripts
m(source=f"{SS_OLD} L38-52", model="flux.1-dev", trainer="sd-scripts flux_train_network.py", method="LoRA (networks.lora_flux)", lora_rank="4", resolution="1024", batch="2 (inferred from dataset_1024_bs2.toml name)",
  base_weights_dtype="fp8 (--fp8_base), T5XXL fp16", mixed_precision="bf16", gradient_checkpointing="yes", text_encoder_handling="cached to disk (--cache_text_encoder_outputs_to_disk)",
  latents_cached="yes (to disk)", optimizer="AdamW 8-bit", other_settings="--highvram --sdpa", figure_gb="24", figure_kind="'will work with 24GB VRAM GPUs' (upper bound)")
m(source=f"{SS_OLD} L55-59", model="flux.1-dev", trainer="sd-scripts flux_train_network.py", method="LoRA", lora_rank="4", base_weights_dtype="fp8", optimizer="Adafactor (relative_step=False)",
  figure_gb="16", figure_kind="'can be done with 16GB VRAM GPUs' (upper bound)", note="other settings as the 24 GB command")
m(source=f"{SS_OLD} L61-65", model="flux.1-dev", trainer="sd-scripts flux_train_network.py", method="LoRA, single blocks only (train_blocks=single)", base_weights_dtype="fp8",
  optimizer="Adafactor", other_settings="--split_mode", figure_gb="12", figure_kind="'can be done with 12GB VRAM GPUs' (upper bound)")
m(source=f"{SS_OLD} L159-190", model="flux.1-dev", trainer="sd-scripts flux_train.py", method="full fine-tune", resolution="1024", batch="1 (inferred from dataset_1024_bs1.toml name)",
  base_weights_dtype="bf16 (--full_bf16: weights and grads bf16)", mixed_precision="bf16", gradient_checkpointing="yes + --cpu_offload_checkpointing",
  text_encoder_handling="cached to disk", latents_cached="yes (disk)", optimizer="Adafactor with --fused_backward_pass (stochastic rounding)",
  other_settings="--double_blocks_to_swap 6 (block swap to CPU), 64 GB host RAM recommended", figure_gb="24", figure_kind="'will work with 24GB VRAM GPUs' (upper bound)",
  note="README: ~640 MB saved per swapped double block, ~320 MB per single block; cpu_offload_checkpointing saves ~2 GB")
for vram, setting in [("24", "basic settings, batch size 2"), ("16", "batch 1 + --blocks_to_swap"), ("12", "--blocks_to_swap 16 + AdamW 8-bit"),
                      ("10", "--blocks_to_swap 22 + fp8 T5XXL"), ("8", "--blocks_to_swap 28 + fp8 T5XXL")]:
    m(source=f"{SS}:docs/flux_train_network.md L280-290", model="flux.1-dev", trainer="sd-scripts flux_train_network.py", method="LoRA", base_weights_dtype="fp8 (--fp8_base)",
      other_settings=setting, figure_gb=vram, figure_kind="recommended settings per GPU memory (fits upper bound)", note="resolution/rank not restated in table")
m(source=f"{SS}:docs/train_SDXL-en.md L48-52", model="sdxl", trainer="sd-scripts sdxl_train.py", method="full fine-tune (U-Net only)", resolution="1024 (default)", batch="1",
  gradient_checkpointing="yes", text_encoder_handling="cached (--cache_text_encoder_outputs)", latents_cached="yes", optimizer="Adafactor ('AdamW 8bit doesn't seem to work')",
  figure_gb="24", figure_kind="'can be done with 24GB GPU memory' (upper bound)")
m(source=f"{SS}:docs/train_SDXL-en.md L53-58", model="sdxl", trainer="sd-scripts sdxl_train_network.py", method="LoRA (U-Net only)", lora_rank="4-8 for 8 GB", gradient_checkpointing="yes",
  text_encoder_handling="cached", latents_cached="yes", optimizer="8-bit optimizer or Adafactor", figure_gb="8", figure_kind="'can be done with 8GB GPU memory (10GB recommended)' (upper bound)")
m(source=f"{SS_OLD} L512-519 (change history, fused optimizer PR #1259)", model="sdxl", trainer="sd-scripts sdxl_train.py", method="full fine-tune", batch="1",
  mixed_precision="no (fp32)", optimizer="Adafactor with --fused_backward_pass", figure_gb="17", figure_kind="'memory usage of about 17GB' (reported)", note="--full_bf16 reduces further")
# ---------- musubi-tuner
for opt, vram in [("none (bf16 DiT)", "42"), ("--fp8_base --fp8_scaled", "30"), ("fp8 + --blocks_to_swap 16", "24"), ("fp8 + --blocks_to_swap 45", "12")]:
    m(source=f"{MT}:docs/qwen_image.md L258-270 (table) with command L184-199", model="qwen-image", trainer="musubi-tuner qwen_image_train_network.py", method="LoRA (networks.lora_qwen_image)",
      lora_rank="16", resolution="1024x1024", batch="1", base_weights_dtype=opt, mixed_precision="bf16", gradient_checkpointing="yes",
      text_encoder_handling="cached (musubi caches TE outputs in a pre-step)", latents_cached="yes (pre-cached)", optimizer="AdamW 8-bit", other_settings="--xformers",
      figure_gb=vram, figure_kind="'VRAM Usage Estimates' table", note="64 GB host RAM recommended with block swap")
m(source=f"{MT}:docs/qwen_image.md L373", model="qwen-image", trainer="musubi-tuner qwen_image_train.py", method="full fine-tune", other_settings="--full_bf16", figure_gb="-20",
  figure_kind="delta: '--full_bf16 reduces VRAM usage by about 20GB'")
m(source=f"{MT}:docs/wan.md L9", model="wan2.1-14b", trainer="musubi-tuner wan_train_network.py", method="LoRA", resolution="720x1280 images", base_weights_dtype="fp8 + block swap",
  figure_gb="24", figure_kind="'training with 720x1280 images with 24GB VRAM' (upper bound)")
m(source=f"{MT}:README.md L136-137", model="(all musubi video models)", trainer="musubi-tuner", method="LoRA", figure_gb="24", figure_kind="recommended: 12 GB+ image training, 24 GB+ video training",
  note="for 12 GB use <=960x544 with --blocks_to_swap/--fp8_llm")
# ---------- ai-toolkit example configs (fits-in claims)
for f, mdl, rank, res, fr, dtype, te, fig, kind in [
        ("train_lora_flux_24gb.yaml", "flux.1-dev", "16", "[512,768,1024] buckets", "", "qfloat8 (quantize: true)", "on GPU, frozen", "24", "fits in 24 GB (file name/README)"),
        ("train_lora_flux_schnell_24gb.yaml", "flux.1-schnell", "16", "[512,768,1024]", "", "qfloat8", "on GPU, frozen", "24", "fits in 24 GB"),
        ("train_lora_sd35_large_24gb.yaml", "sd3.5-large", "16", "1024", "", "qfloat8", "on GPU, frozen", "24", "fits in 24 GB"),
        ("train_lora_qwen_image_24gb.yaml", "qwen-image", "16", "[512,768,1024]", "", "uint3 + accuracy-recovery adapter (3-bit 'required for 24GB'); TE qfloat8", "cache_text_embeddings: true ('required for 24GB')", "24", "fits in 24 GB"),
        ("train_lora_wan21_14b_24gb.yaml", "wan2.1-14b", "32", "632 (~480p)", "40", "qfloat8; TE quantized", "unload_text_encoder: true (single prompt only)", "24", "'should work on 24GB GPUs'"),
        ("train_lora_wan21_1b_24gb.yaml", "wan2.1-1.3b", "32", "632 (~480p)", "40", "bf16 (TE quantized)", "on GPU, quantized", "24", "fits in 24 GB"),
        ("train_lora_hidream_48.yaml", "hidream-i1-full", "32", "[512,768,1024]", "", "quantized transformer + TE", "quantized", "35.2", "config comment '~35.2GB of vram to train'")]:
    m(source=f"{AT}:config/examples/{f}", model=mdl, trainer="ostris ai-toolkit", method="LoRA", lora_rank=rank, resolution=res, frames=fr, batch="1",
      base_weights_dtype=dtype, mixed_precision="bf16", gradient_checkpointing="yes", text_encoder_handling=te, latents_cached="yes (cache_latents_to_disk)",
      optimizer="adamw8bit", figure_gb=fig, figure_kind=kind)
# ---------- diffusion-pipe
m(source=f"{DP}:examples/wan_14b_min_vram.toml L1-45", model="wan2.1-14b", trainer="diffusion-pipe", method="LoRA", lora_rank="32", resolution="512x512", frames="81", batch="1",
  base_weights_dtype="transformer float8, rest bf16", gradient_checkpointing="activation_checkpointing='unsloth' (CPU offload of checkpoints)", text_encoder_handling="cached (diffusion-pipe pre-caches)",
  latents_cached="yes", optimizer="AdamW8bitKahan", other_settings="blocks_to_swap = 32", figure_gb="24", figure_kind="'should allow you to train ... with 24GB VRAM' (upper bound)")
m(source=f"{DP}:docs/supported_models.md L52", model="sdxl", trainer="diffusion-pipe", method="full fine-tune (UNet + both text encoders trained, TE embeddings not cached)",
  figure_gb="48", figure_kind="'You will need 48GB VRAM' (2x24GB with pipeline_stages=2)")
m(source=f"{DP}:docs/supported_models.md L211-239", model="hidream-i1-full", trainer="diffusion-pipe", method="LoRA", base_weights_dtype="transformer float8, Llama3 4-bit",
  text_encoder_handling="Llama3 kept loaded and run every step (not cached)", figure_gb="48", figure_kind="'Without block swapping, you will need 48GB VRAM'; fits 24 GB with block swap or nf4")
# ---------- LTX-Video-Trainer
m(source=f"{LT}:configs/ltxv_2b_lora_low_vram.yaml; {LT}:docs/training-modes.md L25", model="ltx-video (2B 0.9.6)", trainer="LTX-Video-Trainer", method="LoRA (to_k,to_q,to_v,to_out.0)",
  lora_rank="32", batch="1", base_weights_dtype="fp8-quanto", mixed_precision="bf16", gradient_checkpointing="yes", text_encoder_handling="8-bit text encoder; training reads preprocessed (precomputed) data",
  latents_cached="yes (preprocessed_data_root)", optimizer="adamw8bit", other_settings="validation 768x448x89 every 100 steps", figure_gb="24", figure_kind="'Optimized for GPUs with 24GB VRAM' (upper bound)")
m(source=f"{LT}:docs/troubleshooting.md L104-106", model="ltx-video 2B / 13B", trainer="LTX-Video-Trainer", method="LoRA/full", figure_gb="16-40 (2B); 40+ (13B)", figure_kind="range 'depending on resolution and batch size'")
# ---------- SimpleTuner quickstarts
for q, vram in [("none (bf16 base)", "30"), ("int8 + bf16 LoRA", "18"), ("int4", "13"), ("nf4", "9"), ("int2", "9")]:
    m(source=f"{ST}:documentation/quickstart/FLUX.md L11-17", model="flux.1 (Krea/dev)", trainer="SimpleTuner", method="LoRA, all components (MLP, projections, multimodal blocks)", lora_rank="16",
      base_weights_dtype=q, figure_gb=vram, figure_kind="'a bit more than' (lower bound of usage)", note="resolution/batch not restated")
m(source=f"{ST}:documentation/quickstart/FLUX.md L507-524", model="flux.1", trainer="SimpleTuner", method="LoRA", resolution="512 (1024 needs >=12G)", batch="1",
  base_weights_dtype="nf4-bnb", gradient_checkpointing="yes", optimizer="Lion 8-bit paged (bnb-lion8bit-paged)", software="PyTorch 2.6 nightly", figure_gb="8.88 (9090M)",
  figure_kind="lowest VRAM utilisation (9090M)", gpu="10-12 GB CUDA card")
m(source=f"{ST}:documentation/quickstart/WAN.md L18-20", model="wan2.1-1.3b", trainer="SimpleTuner", method="LoRA", lora_rank="16", resolution="832x480", batch="4",
  figure_gb="12", figure_kind="'a bit more than 12G'", note="frames not stated")
m(source=f"{ST}:documentation/quickstart/WAN.md L22-24", model="wan2.1-14b", trainer="SimpleTuner", method="LoRA", resolution="832x480", figure_gb="24", figure_kind="'It'll fit in 24G' with tweaks (upper bound)")
m(source=f"{ST}:documentation/quickstart/HIDREAM.md L569-586", model="hidream-i1", trainer="SimpleTuner", method="LoRA rank 1 / LoKr factor 25", resolution="1024", batch="1",
  base_weights_dtype="int8-quanto / nf4-bnb", gradient_checkpointing="yes", optimizer="Lion 8-bit paged", figure_gb="20-22", figure_kind="lowest VRAM config 'about 20-22G'", software="PyTorch 2.7+")
m(source=f"{ST}:documentation/quickstart/QWEN_IMAGE.md L395-412", model="qwen-image", trainer="SimpleTuner", method="LoRA rank 1-8", resolution="512-768 start", batch="1",
  base_weights_dtype="int2-quanto or nf4-bnb (required for 24GB)", gradient_checkpointing="yes", optimizer="optimi-lion / Lion 8-bit paged", figure_gb="24", figure_kind="lowest config 'requires approximately 24GB'",
  note="QWEN_IMAGE.md L13: text encoder alone ~16GB before quantization")
m(source=f"{ST}:documentation/quickstart/HUNYUANVIDEO.md L7-9", model="hunyuanvideo-1.5 (8.3B, not the 13B v1)", trainer="SimpleTuner", method="LoRA", lora_rank="16", resolution="480p",
  gradient_checkpointing="yes (full)", figure_gb="24-32", figure_kind="'comfortable' minimum")
m(source=f"{ST}:documentation/quickstart/SD3.md L151", model="sd3 (medium)", trainer="SimpleTuner", method="LoRA rank 1", base_weights_dtype="int2-quanto", figure_gb="13.9", figure_kind="'about 13.9GB VRAM' (reported)")
# ---------- SimpleTuner measured sweep (peak VRAM GiB, H100; validation disabled, caches excluded)
sweep = [
    ("sd1.5 (dreamshaper-8)", "sd1x-dreamshaper.peft-lora", "LoRA r16", "512x512", "", "1", "776/774", "1.98", "2.87"),
    ("sdxl", "sdxl.lycoris-lokr", "LyCORIS LoKr", "1024x1024", "", "1", "836/834", "6.53", "13.03"),
    ("sd3 (family; example does not pin flavour)", "sd3.peft-lora", "LoRA r128", "1024x1024", "", "3", "803/801", "7.67", "34.59"),
    ("pixart-sigma", "pixart.lycoris-lokr", "LyCORIS LoKr", "1024x1024", "", "3", "670/668", "5.63", "41.73"),
    ("sana-1.6b", "sana.lycoris-lokr", "LyCORIS LoKr (EMA on)", "1024x1024", "", "4", "722/720", "23.72", "23.71"),
    ("hidream-i1-full", "hidream.peft-lora", "LoRA r128", "512x512", "", "1", "309/307", "33.57", "44.58"),
    ("qwen-image", "qwen_image.peft-lora", "LoRA r8", "1024x1024", "", "1", "695/693", "41.04", "OOM"),
    ("ltx-video 0.9.5", "ltxvideo-0.9.5-t2v.peft-lora", "LoRA r16", "768x512", "49", "1", "556/555", "4.21", "8.77"),
    ("wan2.1-1.3b", "wan2.1-t2v-1.3b-480p-single-gpu.peft-lora+ramtorch", "LoRA r16", "832x480", "81", "1", "890/888", "4.73", "71.90"),
    ("wan2.1-14b", "wan2.1-t2v-14b-480p-single-gpu.peft-lora+ramtorch", "LoRA r16", "832x480", "81", "1", "917/915", "16.28", "OOM"),
    ("hunyuanvideo-1.5 (8.3B)", "hunyuanvideo-1.5-t2v.peft-lora", "LoRA r16", "480 pixel-area", "48", "2", "336/334", "26.35", "OOM")]
for mdl, ex, meth, res, fr, bs, lines, ck, nock in sweep:
    ramtorch = "RamTorch: blocks.* weights offloaded to CPU" if "ramtorch" in ex else ""
    m(source=f"{SEG} L{lines.split('/')[0]} (example config {ST}:simpletuner/examples/{ex}/config.json)", model=mdl, trainer="SimpleTuner", method=meth, resolution=res, frames=fr, batch=bs,
      base_weights_dtype="bf16 (sweep 'Precision' column)", mixed_precision="bf16", gradient_checkpointing="yes (per-layer, torch)", text_encoder_handling="cached (cache preparation excluded)",
      latents_cached="yes", optimizer="per example config (adamw_bf16 / optimi-lion)", other_settings=ramtorch, figure_gb=f"{float(ck) * 1.073741824:.2f} GB ({ck} GiB)",
      figure_kind="peak VRAM GiB, measured (H100 80GB; L40S within 0.1 GiB)", gpu="H100 80GB", note=f"same run without checkpointing (mode none, L{lines.split('/')[1]}): {nock} GiB")

# The same sweep at a later commit adds HiDream's quantized rows (int8-sdnq-hadamard and
# fp8-torchao, layer mode; their `none` rows were not measured).
ST_LATER = "bghira/SimpleTuner@363fbc3cc69cdebf667e2dc0279bf258e3d5bbfc"
m(source=f"{ST_LATER}:documentation/experimental/SEGMENTED_CHECKPOINTING.md, HiDream table (int8-sdnq-hadamard, layer: 2.497 s / 17.99 GiB on H100; L40S 2.058 s / 17.93 GiB)",
  model="hidream-i1-full", trainer="SimpleTuner", method="LoRA r128", resolution="512x512", batch="1",
  base_weights_dtype="int8 (SDNQ with Hadamard rotation, sdnq_compile_mode=eager)", mixed_precision="bf16",
  gradient_checkpointing="yes (per-layer, torch)", text_encoder_handling="cached (cache preparation excluded)", latents_cached="yes",
  optimizer="per example config (optimi-lion)", figure_gb=f"{17.99 * 1.073741824:.2f} GB (17.99 GiB)",
  figure_kind="peak VRAM GiB, measured (H100 80GB; L40S 17.93)", gpu="H100 80GB", note="fp8-torchao, layer: 18.10 GiB")

with open(os.path.join(HERE, "measured.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols)
    w.writeheader()
    for i, r in enumerate(R, 1):
        r["id"] = str(i)
        w.writerow(r)
print(len(R), "rows")
