#!/usr/bin/env python3
"""Writes components.csv. Counts marked 'computed' come from param_counts.py (run it to reproduce)."""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))

D = "huggingface/diffusers@58eb52c0803ea9af3abec60841c2a093bdf1f951"
SS = "kohya-ss/sd-scripts@48d368fa557731ad0488c07304dfeba8c07910eb"
W = "Wan-Video/Wan2.1@9737cba9c1c3c4d04b33fcad41c111989865d315"
HV = "Tencent/HunyuanVideo@fa14b001c18f37191c938a9ef6baad3b9b472759"
CV = "THUDM/CogVideo@e519eced782c08db81f45e5eb40baa45958087ae"
KH = "keras-team/keras-hub@71453d08f59edc90d276e999319fc51e61cbf82c"
ST = "bghira/SimpleTuner@bc8e6ab7738ce457a2ed8eb2d26cadd91c6442cb"
MT = "kohya-ss/musubi-tuner@30c658c4f4b0bf05038b3346eff9670259b10fc7"
LT = "Lightricks/LTX-Video-Trainer@31b12733f51cb16b244d23f6552609f369aed883"
BLOG = "huggingface/blog@2ece681fdf41928fbaf103d702ff7af1da4352fc:flux-qlora.md"
PC = "data/families/param_counts.py"
READ = "2026-12-04"

cols = ["preset_id", "component", "trainable_in_typical_recipe", "params", "params_kind", "params_source",
        "layers", "hidden", "heads", "head_dim", "mlp", "patch_size", "latent_channels_in",
        "vae_spatial", "vae_temporal", "text_max_tokens", "tokens_formula", "config_source", "note", "date_read"]
R = []
def row(**k):
    R.append({c: k.get(c, "") for c in cols} | {"date_read": READ})

IMG16 = "(H/16)*(W/16) image tokens"
# ---------------- SD 1.5
row(preset_id="sd1.5", component="unet", trainable_in_typical_recipe="yes (LoRA or full)", params="859520000",
    params_kind="stated (rounded to 0.001M)", params_source=f"{D}:docs/source/en/optimization/tgate.md L167 ('SD-1.5 ... 859.520M')",
    layers="4 down blocks x 2 resnets (+3 per up block)", hidden="block_out_channels 320/640/1280/1280", head_dim="", heads="8 (attention_head_dim=8 in diffusers default)",
    mlp="GEGLU 4x in transformer blocks", patch_size="n/a (conv UNet)", latent_channels_in="4", vae_spatial="8", vae_temporal="",
    text_max_tokens="77", tokens_formula="no token sequence; conv activations on (H/8)x(W/8)x{320..1280}; cross-attn over 77 text tokens; self-attn at (H/8)(W/8),(H/16)(W/16),(H/32)(W/32) positions",
    config_source=f"{SS}:library/original_unet.py L123-133; {D}:src/diffusers/models/unets/unet_2d_condition.py __init__ defaults (block_out_channels, layers_per_block=2, attention_head_dim=8)",
    note="diffusers UNet2DConditionModel defaults are the SD1.x config; cross_attention_dim 768 for SD1.x (CLIP-L width) is set in the model's config.json, not verified here")
row(preset_id="sd1.5", component="text_encoder_1 (CLIP ViT-L/14 text)", trainable_in_typical_recipe="frozen (optional LoRA/full)", params="123060480",
    params_kind="computed", params_source=f"{PC} clip_text(12,768,3072) (no projection; SD uses CLIPTextModel)",
    layers="12", hidden="768", heads="12", head_dim="64", mlp="3072", text_max_tokens="77",
    config_source=f"{SS}:library/sdxl_model_util.py L214-236 (CLIP-L text config: vocab 49408, 77 pos, 12 layers x 768, 3072, 12 heads)",
    note="formula verified: CLIP-L(+proj 768x768)+CLIP-G(+proj)+VAE-z16 sums to the keras-hub SD3 remainder exactly (see notes.md)")
row(preset_id="sd1.5", component="vae (AutoencoderKL z=4)", trainable_in_typical_recipe="frozen", params="83653863",
    params_kind="computed (not externally cross-checked)", params_source=f"{PC} vae_kl(4, quant_conv=True)",
    layers="ch 128, mult 1/2/4/4, 2 res blocks", latent_channels_in="4", vae_spatial="8",
    config_source=f"{SS}:library/flux_models.py L147-273 (same Encoder/Decoder code, z differs)",
    note="encoder 34,163,592 / decoder 49,490,179 (+92 quant convs); VAE encode workspace matters only if latents are not cached")
# ---------------- SDXL
row(preset_id="sdxl", component="unet", trainable_in_typical_recipe="yes", params="2570000000",
    params_kind="stated (rounded 2.570B)", params_source=f"{D}:docs/source/en/optimization/tgate.md L171 ('SD-XL ... 2.570B')",
    layers="3 levels, transformer_depth [1,2,10] (first level has no attention)", hidden="model_channels 320, channel_mult [1,2,4] -> 320/640/1280",
    heads="num_head_channels 64 (heads = channels/64)", head_dim="64", mlp="GEGLU 4x", patch_size="n/a", latent_channels_in="4", vae_spatial="8",
    text_max_tokens="77 (both encoders, concatenated on width: context_dim 2048)",
    tokens_formula="self-attn only at (H/16)(W/16) [depth 2] and (H/32)(W/32) [depth 10] positions; cross-attn over 77 tokens",
    config_source=f"{SS}:library/sdxl_original_unet.py L7-20 (yaml excerpt), L40-45 (IN_CHANNELS 4, ADM_IN_CHANNELS 2816, CONTEXT_DIM 2048, MODEL_CHANNELS 320)",
    note="SimpleTuner QUICKSTART lists 'Stable Diffusion XL 3.5B' = whole pipeline")
row(preset_id="sdxl", component="text_encoder_1 (CLIP ViT-L/14 text)", trainable_in_typical_recipe="frozen (diffusers LoRA script: optional --train_text_encoder)", params="123060480",
    params_kind="computed", params_source=f"{PC} clip_text(12,768,3072)", layers="12", hidden="768", heads="12", head_dim="64", mlp="3072", text_max_tokens="77",
    config_source=f"{SS}:library/sdxl_model_util.py L214-236")
row(preset_id="sdxl", component="text_encoder_2 (OpenCLIP bigG/14 text, with projection)", trainable_in_typical_recipe="frozen", params="694659840",
    params_kind="computed + cross-checked", params_source=f"{PC} clip_text(32,1280,5120,proj=1280*1280); SimpleTuner {ST}:documentation/QUICKSTART.md L298 states 694M",
    layers="32", hidden="1280", heads="20", head_dim="64", mlp="5120", text_max_tokens="77",
    config_source=f"{SS}:library/sdxl_model_util.py L240-262 (bigG text: 1280, 5120, 20 heads, 32 layers, projection 1280, CLIPTextModelWithProjection)")
row(preset_id="sdxl", component="vae (AutoencoderKL z=4)", trainable_in_typical_recipe="frozen", params="83653863", params_kind="computed", params_source=f"{PC} vae_kl(4, quant_conv=True)",
    latent_channels_in="4", vae_spatial="8", note=f"diffusers SDXL LoRA script keeps VAE in fp32: {D}:examples/dreambooth/train_dreambooth_lora_sdxl.py L1181")
# ---------------- SD3 family
for pid, L, dual, pmax, tot, tot_pos, stated in [
        ("sd3-medium", 24, "none", 192, 2028328000, 2084951104, "2B ('Stable Diffusion 3 Medium, with 2B parameters', huggingface/blog@04fdd03d5565a696b9fcfa5da34f302750adeceb:sd3.md)"),
        ("sd3.5-medium", 24, "layers 0-12 (MMDiT-X second self-attention)", 384, 2243171520, 2469663936, "not found in fetched sources (commonly 2.5B)"),
        ("sd3.5-large", 38, "none", 192, 8056627520, 8146280768, "not found in fetched sources")]:
    hid = 64 * L
    row(preset_id=pid, component="transformer (MMDiT)", trainable_in_typical_recipe="yes (LoRA)", params=str(tot),
        params_kind="computed + cross-checked", params_source=f"{PC} sd3(); diffusers-style count excluding the pos_embed buffer. Including the {pmax}x{pmax}x{hid} pos_embed table (stored in the original checkpoint) = {tot_pos}; keras-hub {KH}:keras_hub/src/models/stable_diffusion_3/stable_diffusion_3_presets.py totals minus this leave exactly CLIP-L+CLIP-G+VAE (902,129,827) for all three variants. Stated: {stated}",
        layers=str(L), hidden=str(hid), heads=str(L), head_dim="64", mlp="4x (gelu-tanh) for image and context streams", patch_size="2", latent_channels_in="16", vae_spatial="8",
        text_max_tokens="77 CLIP + max_sequence_length T5 (pipeline default 256; dreambooth script default 77) concatenated",
        tokens_formula="(H/16)*(W/16) image tokens + (77 + T5 length) text tokens in joint attention",
        config_source=f"num_attention_heads=num_layers, hidden=64*depth: {D}:scripts/convert_sd3_to_diffusers.py L291-318, {SS}:library/sd3_models.py L798-799; SD3.5 dims/dual_attention_layers/qk_norm/pos_embed_max_size: Tenstorrent tt-forge SD3.5 helper (find_string id 53668838869, copies HF transformer/config.json) and {D}:src/diffusers/models/transformers/transformer_sd3.py L57 comment; SD3.0 qk_norm none (convert script L299)",
        note="last block is context_pre_only (no context FF)")
    row(preset_id=pid, component="text_encoder_1 (CLIP-L/14 text + projection)", trainable_in_typical_recipe="frozen (cached or deleted after encoding in diffusers script when no custom captions)", params="123650304",
        params_kind="computed + cross-checked (keras remainder)", params_source=f"{PC} clip_text(12,768,3072,proj=768*768)", layers="12", hidden="768", heads="12", head_dim="64", mlp="3072", text_max_tokens="77")
    row(preset_id=pid, component="text_encoder_2 (OpenCLIP bigG/14 text + projection)", trainable_in_typical_recipe="frozen", params="694659840",
        params_kind="computed + cross-checked", params_source=f"{PC}", layers="32", hidden="1280", heads="20", head_dim="64", mlp="5120", text_max_tokens="77")
    row(preset_id=pid, component="text_encoder_3 (T5-v1.1-XXL encoder)", trainable_in_typical_recipe="frozen", params="4762310656",
        params_kind="computed; stated 4.7B", params_source=f"{PC} t5_encoder(); {D}:docs/source/en/api/pipelines/stable_diffusion/stable_diffusion_3.md L157 ('4.7B parameter T5-XXL')",
        layers="24", hidden="4096", heads="64", head_dim="64", mlp="10240 gated-gelu", text_max_tokens="256 (pipeline default)",
        config_source=f"{SS}:library/flux_utils.py L357-394 (load_t5xxl T5 config JSON)",
        note="SimpleTuner QUICKSTART says 'T5 XXL v1.1 11B' = full encoder-decoder; only the encoder is loaded")
    row(preset_id=pid, component="vae (AutoencoderKL z=16)", trainable_in_typical_recipe="frozen", params="83819683",
        params_kind="computed + cross-checked (keras remainder exact)", params_source=f"{PC} vae_kl(16)", latent_channels_in="16", vae_spatial="8",
        note=f"diffusers SD3 LoRA script keeps VAE fp32: {D}:examples/dreambooth/train_dreambooth_lora_sd3.py L1237")
# ---------------- FLUX.1
for pid, tot, g, tmax in [("flux.1-dev", 11901408320, "guidance_embed=True", "512"), ("flux.1-schnell", 11891178560, "guidance_embed=False", "256")]:
    row(preset_id=pid, component="transformer", trainable_in_typical_recipe="yes (LoRA)", params=str(tot),
        params_kind="computed" + (" + verified" if g.endswith("True") else ""),
        params_source=f"{PC} flux(); " + (f"verified: {BLOG} prints 'trainable params: 4,669,440 || all params: 11,906,077,760' for rank-4 LoRA on to_q/k/v/out -> 11,906,077,760-4,669,440 = 11,901,408,320" if g.endswith("True") else "dev minus guidance_in MLPEmbedder(256->3072->3072) = 10,229,760"),
        layers="19 double-stream + 38 single-stream", hidden="3072", heads="24", head_dim="128", mlp="4x (12288)", patch_size="2x2 latent packing (in_channels 64 = 16ch*2*2)",
        latent_channels_in="16", vae_spatial="8", text_max_tokens=tmax,
        tokens_formula="(H/16)*(W/16) image tokens + T5 tokens (max_sequence_length) in joint attention; CLIP pooled only",
        config_source=f"{SS}:library/flux_models.py L376-440 (configs dev/schnell), {D}:src/diffusers/pipelines/flux/pipeline_flux.py L520-521 (_pack_latents 2x2), L221 (max_sequence_length 512); schnell 256: {SS} README@6abacf04 'Default is 512 in dev and 256 in schnell'",
        note=f"{g}; per double block 339,831,296, per single 141,591,808")
    row(preset_id=pid, component="text_encoder_1 (CLIP-L/14 text, no projection)", trainable_in_typical_recipe="frozen", params="123060480", params_kind="computed",
        params_source=f"{PC}", layers="12", hidden="768", heads="12", head_dim="64", mlp="3072", text_max_tokens="77 (pooled output only)", config_source=f"{SS}:library/sdxl_model_util.py L214-236")
    row(preset_id=pid, component="text_encoder_2 (T5-v1.1-XXL encoder)", trainable_in_typical_recipe="frozen", params="4762310656", params_kind="computed",
        params_source=f"{PC}", layers="24", hidden="4096", heads="64", head_dim="64", mlp="10240 gated-gelu", text_max_tokens=tmax, config_source=f"{SS}:library/flux_utils.py L357-394")
    row(preset_id=pid, component="vae (ae, z=16)", trainable_in_typical_recipe="frozen", params="83819683", params_kind="computed (same arch as SD3 VAE, which is cross-checked)",
        params_source=f"{PC} vae_kl(16)", latent_channels_in="16", vae_spatial="8", config_source=f"{SS}:library/flux_models.py L398-406 (ch 128, mult [1,2,4,4], 2 res blocks, z 16)")
# ---------------- FLUX.2
row(preset_id="flux.2-dev", component="transformer", trainable_in_typical_recipe="yes (LoRA)", params="32223281152",
    params_kind="computed (built)",
    params_source="tools/calibrate/dit_probe.py builds diffusers 0.42.1 Flux2Transformer2DModel at its default config (2026-12-06): 816,316,416 outside the blocks (shared modulations, embedders, final layer) + 8 x 981,467,648 + 48 x 490,733,824; SimpleTuner QUICKSTART L19 'Flux.2 4B-32B' (the 32B is [dev])",
    layers="8 double-stream + 48 single-stream", hidden="6144", heads="48", head_dim="128", mlp="SwiGLU 3x (18432)", patch_size="2x2 latent packing (in_channels 128 = 32ch*2*2)",
    latent_channels_in="32", vae_spatial="8", text_max_tokens="512 (Mistral Small 3.1 hidden states of layers 10, 20, 30 stacked: 15360)",
    tokens_formula="(H/16)*(W/16) image tokens + text tokens in joint attention",
    config_source=f"diffusers 0.42.1 src/diffusers/models/transformers/transformer_flux2.py Flux2Transformer2DModel __init__ defaults (num_layers 8, num_single_layers 48, 48 heads x 128, joint_attention_dim 15360, mlp_ratio 3); pipelines/flux2/pipeline_flux2.py (max_sequence_length 512, hidden_states_layers (10, 20, 30), Mistral3ForConditionalGeneration)",
    note=f"diffusers README_flux2.md: FLUX.2 [dev] uses the Mistral Small 3.1 text encoder, klein variants are 4B/9B ({D}:examples/dreambooth/README_flux2.md L12-13); SimpleTuner QUICKSTART L273 text encoder Mistral-Small-3.1-24B")
# ---------------- Qwen-Image
row(preset_id="qwen-image", component="transformer (MMDiT, 60 dual-stream blocks)", trainable_in_typical_recipe="yes (LoRA)", params="20430401088",
    params_kind="computed; stated 20B", params_source=f"{PC} qwen_image(); {ST}:documentation/QUICKSTART.md L39 '20B'",
    layers="60", hidden="3072", heads="24", head_dim="128", mlp="4x", patch_size="2x2 packing (in_channels 64)", latent_channels_in="16", vae_spatial="8",
    text_max_tokens="pipeline default 512 (max 1024 in encode); actual = prompt length after dropping template tokens",
    tokens_formula="(H/16)*(W/16) image tokens + text tokens (joint attention)",
    config_source=f"{D}:src/diffusers/models/transformers/transformer_qwenimage.py L860-906 (defaults), {MT}:src/musubi_tuner/qwen_image/qwen_image_model.py L1409-1417 (num_layers 60, joint_attention_dim 3584); pipeline {D}:src/diffusers/pipelines/qwenimage/pipeline_qwenimage.py L170, L333-334, L432",
    note="per block 339,831,296 (same as a FLUX double block)")
row(preset_id="qwen-image", component="text_encoder (Qwen2.5-VL-7B language model)", trainable_in_typical_recipe="frozen", params="", params_kind="stated 7B",
    params_source=f"{ST}:documentation/QUICKSTART.md L293 ('Qwen2.5-VL 7B')", layers="28", hidden="3584", mlp="18944",
    config_source=f"{SS}:library/hunyuan_image_text_encoder.py L253-321 (Qwen2.5-VL-7B text config: hidden 3584, 28 layers, intermediate 18944)",
    note="SimpleTuner QWEN_IMAGE.md L13: 'text encoder alone consumes ~16GB VRAM before quantization'")
row(preset_id="qwen-image", component="vae (Qwen-Image VAE, Wan-style 3D causal)", trainable_in_typical_recipe="frozen", params="", params_kind="not found",
    latent_channels_in="16", vae_spatial="8", config_source=f"{D}:src/diffusers/pipelines/qwenimage/pipeline_qwenimage.py L170 (vae_scale_factor = 2**len(temperal_downsample))")
# ---------------- HiDream
row(preset_id="hidream-i1-full", component="transformer (dual+single stream, MoE FFN)", trainable_in_typical_recipe="yes (LoRA)", params="17105733184",
    params_kind="computed + built", params_source=f"{PC} hidream(): 546,260,544 outside the blocks (timestep, pooled-text and patch embedders, final layer, 49 caption projections 4096 -> 2560) + 16 x 424,089,600 + 32 x 305,438,720; equal to diffusers 0.42.1 HiDreamImageTransformer2DModel built on the meta device from the config in HiDream-I1-Full transformer/config.json as scripts/convert_hidream_to_diffusers.py of a diffusers branch writes it (read in the public code index; not in {D}) (tools/calibrate/dit_probe.py, 2026-12-07); stated 17B in {ST}:documentation/QUICKSTART.md L21",
    layers="16 double + 32 single", hidden="2560", heads="20", head_dim="128",
    mlp="MoE SwiGLU: shared expert 3584, 4 routed experts of 6912 with 2 per token; the double blocks' text stream SwiGLU 6912", patch_size="2 (in_channels 64)", vae_spatial="8", latent_channels_in="16",
    text_max_tokens="128 per stream (pipeline default); the blocks see 3 x 128: T5, the last Llama layer, and each block's own Llama layer", tokens_formula="(H/16)*(W/16) image tokens (a non-square latent padded to 4096) + 384 text tokens",
    config_source=f"scripts/convert_hidream_to_diffusers.py of a diffusers branch, read in the public code index (HiDream-I1-Full config: num_layers 16, num_single_layers 32, attention_head_dim 128, heads 20, num_routed_experts 4, num_activated_experts 2, caption_channels [4096, 4096], text_emb_dim 2048, in/out channels 16, patch 2, llama_layers 0..31 then 31 x 16); {D}:src/diffusers/models/transformers/transformer_hidream_image.py; {D}:src/diffusers/pipelines/hidream_image/pipeline_hidream_image.py L205",
    note="Four text encoders: CLIP-L and CLIP-G with projection, T5-XXL, Llama-3.1-8B-Instruct (LlamaForCausalLM, output_hidden_states); diffusion-pipe docs say Llama3 must stay loaded (not cached)")
# ---------------- PixArt-Sigma
row(preset_id="pixart-sigma", component="transformer (DiT, cross-attention)", trainable_in_typical_recipe="yes (full or LoRA/LyCORIS)", params="610856096",
    params_kind="computed + cross-checked", params_source=f"{PC} pixart(); with PixArt-alpha's 2 size embedders (+493,056) = 611,349,152 ~ '611.350M' in {D}:docs/source/en/optimization/tgate.md L173; stated 0.6B in {D}:docs/source/en/api/pipelines/pixart_sigma.md L21",
    layers="28", hidden="1152", heads="16", head_dim="72", mlp="4x", patch_size="2", latent_channels_in="4", vae_spatial="8", text_max_tokens="300 (T5-XXL)",
    tokens_formula="(H/16)*(W/16) image tokens (self-attn); cross-attn to <=300 text tokens",
    config_source=f"{D}:scripts/convert_pixart_sigma_to_diffusers.py Transformer2DModel(...) kwargs; {D}:src/diffusers/pipelines/pixart_alpha/pipeline_pixart_sigma.py L259",
    note="out_channels 8 (learned sigma); text encoder T5-v1.1-XXL encoder 4,762,310,656 (computed), VAE SDXL-type z=4")
# ---------------- Sana
row(preset_id="sana-1.6b", component="transformer (linear-attention DiT)", trainable_in_typical_recipe="yes", params="1604462752",
    params_kind="computed; stated 1.6B", params_source=f"{PC} sana(); {D}:examples/research_projects/sana/README.md L19 ('1.6B parameter model')",
    layers="20", hidden="2240", heads="70 (self, linear attn) / 20 x 112 (cross)", head_dim="32", mlp="GLUMBConv 2.5x (1x1 -> depthwise 3x3 -> 1x1)",
    patch_size="1", latent_channels_in="32", vae_spatial="32 (DC-AE)", text_max_tokens="300 (Gemma-2-2B)",
    tokens_formula="(H/32)*(W/32) image tokens; linear self-attention (O(N)); cross-attn to <=300 text tokens",
    config_source=f"{D}:scripts/convert_sana_to_diffusers.py L403-410, L230-242; {D}:src/diffusers/pipelines/sana/pipeline_sana.py L215-218 (vae_scale_factor 32), L228",
    note="text encoder Gemma2 2B (SimpleTuner QUICKSTART L294)")
# ---------------- LTX-Video
for pid, heads, hd, L, cross, tot, stated in [("ltx-video", 32, 64, 28, 2048, 1923385472, "~2.5B (SimpleTuner QUICKSTART L31, whole model family)"),
                                              ("ltx-video-13b", 32, 128, 48, 4096, 13042569344, f"13B ({D}:docs/source/en/api/pipelines/ltx_video.md L141)")]:
    row(preset_id=pid, component="transformer", trainable_in_typical_recipe="yes (LoRA)", params=str(tot), params_kind="computed", params_source=f"{PC} ltx(); stated {stated}",
        layers=str(L), hidden=str(heads * hd), heads=str(heads), head_dim=str(hd), mlp="4x", patch_size="1x1x1 (latent 128 ch)", latent_channels_in="128",
        vae_spatial="32", vae_temporal="8", text_max_tokens="128 (T5-XXL)",
        tokens_formula="((F-1)/8+1)*(H/32)*(W/32) video tokens; cross-attn to <=128 text tokens",
        config_source=f"{D}:scripts/convert_ltx_to_diffusers.py L195-231 (0.9.7=13B vs default 2B); {D}:src/diffusers/pipelines/ltx/pipeline_ltx.py L216-221, L238, L722; {LT}:docs/troubleshooting.md L91-102 (sequence_length = (H/32)*(W/32)*((F-1)/8+1), examples)")
# ---------------- Wan 2.1
for pid, dim, ffn, heads, L, tot in [("wan2.1-1.3b", 1536, 8960, 12, 30, 1418996800), ("wan2.1-14b", 5120, 13824, 40, 40, 14288491584)]:
    row(preset_id=pid, component="transformer (DiT, self + cross attn)", trainable_in_typical_recipe="yes (LoRA)", params=str(tot), params_kind="computed",
        params_source=f"{PC} wan(); stated 1.3B/14B in {D}:docs/source/en/api/pipelines/wan.md L27",
        layers=str(L), hidden=str(dim), heads=str(heads), head_dim="128", mlp=f"ffn_dim {ffn}", patch_size="(1,2,2)", latent_channels_in="16",
        vae_spatial="8", vae_temporal="4", text_max_tokens="512 (umT5-XXL, text_len)",
        tokens_formula="((F-1)/4+1)*(H/16)*(W/16) video tokens; cross-attn to 512 text tokens",
        config_source=f"{W}:wan/configs/wan_t2v_1_3B.py L17-29, wan_t2v_14B.py L17-29, shared_config.py L9-11; model {W}:wan/modules/model.py L73-476; {D}:src/diffusers/pipelines/wan/pipeline_wan.py L154-155, L340",
        note="text encoder umT5-XXL encoder (models_t5_umt5-xxl-enc-bf16.pth); exact count not computed")
# ---------------- CogVideoX
for pid, heads, L, tot, pe in [("cogvideox-2b", 30, 30, 1693783872, "3D sincos pos-embed buffer"), ("cogvideox-5b", 48, 42, 5570283072, "3D RoPE")]:
    row(preset_id=pid, component="transformer (expert-adaLN full-attention DiT)", trainable_in_typical_recipe="yes (LoRA rank 128 in CogVideo table)", params=str(tot), params_kind="computed",
        params_source=f"{PC} cogvideox(); stated 2B/5B in {D}:docs/source/en/api/pipelines/cogvideox.md L26",
        layers=str(L), hidden=str(heads * 64), heads=str(heads), head_dim="64", mlp="4x", patch_size="2 (spatial), 1 (temporal) for v1.0", latent_channels_in="16",
        vae_spatial="8", vae_temporal="4", text_max_tokens="226 (T5-XXL)",
        tokens_formula="((F-1)/4+1)*(H/16)*(W/16) video tokens + 226 text tokens in one full-attention sequence (e.g. 49x480x720 -> 13*30*45=17,550 + 226)",
        config_source=f"{D}:scripts/convert_cogvideox_to_diffusers.py L249-252 (2B: 30 layers/30 heads; 5B: 42/48), L205-220; model {D}:src/diffusers/models/transformers/cogvideox_transformer_3d.py L93-117, L223-330; {D}:src/diffusers/pipelines/cogvideo/pipeline_cogvideox.py L192-197, L206, L680",
        note=pe + "; CogVideoX1.5 uses patch_size_t=2 (convert script L216)")
# ---------------- HunyuanVideo
row(preset_id="hunyuanvideo", component="transformer (20 double + 40 single stream)", trainable_in_typical_recipe="yes (LoRA)", params="12821012544",
    params_kind="computed (built)",
    params_source=f"tools/calibrate/dit_probe.py builds diffusers 0.42.1 HunyuanVideoTransformer3DModel at its default config (2026-12-06): 360,714,304 outside the blocks (x_embedder, 2-layer token refiner, time/guidance/pooled-text embedders, norm_out, proj_out) + 20 x 339,831,296 + 40 x 141,591,808 (blocks = {PC} hunyuanvideo_blocks() 12,460,298,240); stated '13B parameter' {D}:docs/source/en/api/pipelines/hunyuan_video.md L25; '>13 billion' {HV}:README.md L130",
    layers="20 double + 40 single", hidden="3072", heads="24", head_dim="128", mlp="4x", patch_size="[1,2,2]", latent_channels_in="16",
    vae_spatial="8", vae_temporal="4", text_max_tokens="256 (LLM, llava-llama-3-8b) + 77 (CLIP-L pooled)",
    tokens_formula="((F-1)/4+1)*(H/16)*(W/16) video tokens + text tokens in joint attention",
    config_source=f"{HV}:hyvideo/modules/models.py L742-760, L452 (patch [1,2,2]), L462 (qkv_bias True), L552 (passed to blocks), {HV}:hyvideo/config.py L102 (--text-len 256); {D}:src/diffusers/pipelines/hunyuan_video/pipeline_hunyuan_video.py L195-206, L405",
    note="the blocks' linears are FLUX.1's (same hidden, heads, MLP ratio); the text stream is the token refiner's output")
# ---------------- Vision
for pid, L, Dm, M, p, img, tot, ref in [("vit-b", 12, 768, 3072, 16, 224, 85798656, "vit_base_patch16_224_imagenet"),
                                          ("vit-l", 24, 1024, 4096, 16, 224, 303301632, "vit_large_patch16_224_imagenet"),
                                          ("vit-h", 32, 1280, 5120, 14, 224, 630764800, "vit_huge_patch14_224_imagenet21k")]:
    row(preset_id=pid, component="vision backbone (no classifier head)", trainable_in_typical_recipe="yes (full or LoRA)", params=str(tot),
        params_kind="computed = stated exactly", params_source=f"{KH}:keras_hub/src/models/vit/vit_presets.py ({ref} params) and {PC} vit()",
        layers=str(L), hidden=str(Dm), heads=str(Dm // 64), head_dim="64", mlp=str(M), patch_size=str(p),
        tokens_formula=f"(img/{p})^2 + 1 CLS ({(img // p) ** 2 + 1} at {img}px)", note="head adds hidden*num_classes+num_classes")
row(preset_id="clip-vit-l", component="vision+text (full CLIP ViT-L/14)", trainable_in_typical_recipe="vision tower typically", params="427616770",
    params_kind="stated (keras-hub preset)", params_source=f"{KH}:keras_hub/src/models/clip/clip_presets.py L27-33 (clip_vit_large_patch14); 336px variant 427,944,770",
    layers="24 vision / 12 text", hidden="1024 vision / 768 text", heads="16 / 12", head_dim="64", patch_size="14", tokens_formula="(224/14)^2+1 = 257 vision tokens",
    note="text tower 123,650,304 (computed, with projection) -> vision tower+logit_scale ~303.97M by difference (derived, not stated)")
row(preset_id="siglip-so400m", component="vision+text (full SigLIP so400m/14 @384)", trainable_in_typical_recipe="vision tower typically", params="877961291",
    params_kind="stated (keras-hub preset)", params_source=f"{KH}:keras_hub/src/models/siglip/siglip_presets.py L90-96 (siglip_so400m_patch14_384); @224: 877,360,578",
    patch_size="14", tokens_formula="(384/14)^2 = 729 tokens (no CLS)", note="vision-tower-only count, depth/width not found in fetched sources")
row(preset_id="sam-vit-h", component="image encoder (ViTDet) + prompt encoder + mask decoder", trainable_in_typical_recipe="usually mask decoder only", params="",
    params_kind="conflicting: keras-hub lists sam_huge_sa1b 312,343,088 and sam_large_sa1b 641,090,864 (apparently swapped)", params_source=f"{KH}:keras_hub/src/models/sam/sam_presets.py L4-23",
    layers="32", hidden="1280", heads="16", head_dim="80", mlp="5120", patch_size="16", tokens_formula="(1024/16)^2 = 4096 tokens, windowed attention (14x14) except global layers [7,15,23,31]",
    config_source=f"{KH}:tools/checkpoint_conversion/convert_sam_checkpoints.py L128-139", note="a ViT-H/16 encoder of this shape is ~632M, so 641,090,864 is the plausible huge total; treat as unresolved")
# ---------------- Whisper
for pid, L, Dm, V, mels, tot, enc, dec, kind, src in [
        ("whisper-small", 12, 768, 51865, 80, 241734912, 88154112, 153580800, "computed = stated exactly", "whisper_small_multi"),
        ("whisper-medium", 24, 1024, 51865, 80, 763857920, 307216384, 456641536, "computed = stated exactly", "whisper_medium_multi"),
        ("whisper-large-v3", 32, 1280, 51866, 128, 1543490560, 636968960, 906521600, "derived: large-v2 (stated 1,543,304,960) + conv1 128 vs 80 mel + 1 vocab token", "whisper_large_multi_v2")]:
    row(preset_id=pid, component="encoder-decoder (full)", trainable_in_typical_recipe="yes (full or LoRA)", params=str(tot), params_kind=kind,
        params_source=f"{KH}:keras_hub/src/models/whisper/whisper_presets.py ({src}); {PC} whisper(); encoder {enc:,} / decoder {dec:,}",
        layers=f"{L} enc + {L} dec", hidden=str(Dm), heads=str(Dm // 64), head_dim="64", mlp=str(4 * Dm),
        tokens_formula="encoder 1500 tokens (30 s -> 3000 mel frames, conv stride 2); decoder <=448 tokens",
        config_source=f"huggingface/blog@17e0c1d1a60415688a810127c660aea54804cc94:fine-tune-whisper.md size table (layers/width/heads); {KH}:keras_hub/src/models/whisper/whisper_backbone.py L98-117 (num_mels 80, max_encoder_sequence_length 3000, max_decoder 448, conv strides=2)",
        note=("large-v3: 128 mel bins and a new Cantonese token per the openai/whisper-large-v3 model card (text transcribed in indexed files, e.g. find_string id 24808532217); vocab 51866 assumed = 51865+1" if "v3" in pid else "stated table: small 244M, medium 769M"))
# ---------------- Qwen2.5-VL vision tower
row(preset_id="qwen2.5-vl-7b", component="vision_tower (ViT + patch merger)", trainable_in_typical_recipe="often frozen", params="", params_kind="not found (config only)",
    layers="32", hidden="1280", heads="16", head_dim="80", mlp="3420 (SwiGLU)", patch_size="14 (temporal 2), 2x2 spatial merge -> out 3584",
    tokens_formula="(H/14)*(W/14) patches -> /4 after merger = (H/28)*(W/28) LLM tokens per frame-pair; window attention (112) except full-attn blocks 7,15,23,31",
    config_source=f"{SS}:library/hunyuan_image_text_encoder.py L350-375 (vision_config of Qwen2.5-VL-7B)",
    note="transformers' Qwen2_5_VLVisionConfig default hidden_size=3584 is NOT the 7B value (seen in indexed copies); use the checkpoint config")

with open(os.path.join(HERE, "components.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols)
    w.writeheader()
    w.writerows(R)
print(len(R), "rows")
