#!/usr/bin/env python3
"""Analytic parameter counts for diffusion/video denoisers (pure Python, no torch).

Each function transcribes the nn.Parameter-bearing modules of one model class
(Linear = in*out + out if bias; LayerNorm/RMSNorm affine = dim (+dim bias);
Conv = in*out*prod(k) + out; nn.Parameter tables counted by shape).
Buffers (fixed sin-cos pos_embed, RoPE freqs) are NOT parameters and are excluded.
Sources (read 2026-12-04):
  sd-scripts  = kohya-ss/sd-scripts@48d368fa557731ad0488c07304dfeba8c07910eb
  diffusers   = huggingface/diffusers@58eb52c0803ea9af3abec60841c2a093bdf1f951
  wan         = Wan-Video/Wan2.1@9737cba9c1c3c4d04b33fcad41c111989865d315
Not verified by instantiating the modules (no torch on this machine); cross-checks
against published totals are printed where one exists.
"""
import sys


def lin(i, o, bias=True):
    return i * o + (o if bias else 0)


# ---------------------------------------------------------------- FLUX.1
# sd-scripts library/flux_models.py: configs L376-440, MLPEmbedder L546-551,
# RMSNorm/QKNorm L581-598, SelfAttention L606-614, Modulation L633-638,
# DoubleStreamBlock L649-680, SingleStreamBlock L762-793, LastLayer L861-866, Flux L878-922
def flux(H=3072, mlp_ratio=4.0, heads=24, depth=19, depth_single=38, in_ch=64,
         vec_in=768, ctx_in=4096, guidance=True, qkv_bias=True):
    hd = H // heads
    M = int(H * mlp_ratio)
    mlp_embedder = lambda i: lin(i, H) + lin(H, H)
    top = lin(in_ch, H) + mlp_embedder(256) + mlp_embedder(vec_in) + lin(ctx_in, H)
    if guidance:
        top += mlp_embedder(256)
    attn = lin(H, 3 * H, qkv_bias) + 2 * hd + lin(H, H)  # qkv + QKNorm(2 RMSNorm(hd)) + proj
    stream = lin(H, 6 * H) + attn + lin(H, M) + lin(M, H)  # mod + attn + mlp (norms no affine)
    double = 2 * stream
    single = lin(H, 3 * H + M) + lin(H + M, H) + 2 * hd + lin(H, 3 * H)
    last = lin(H, 1 * 1 * in_ch) + lin(H, 2 * H)
    blocks = depth * double + depth_single * single
    return dict(total=top + blocks + last, blocks=blocks, per_double=double, per_single=single,
                non_block=top + last)


# ---------------------------------------------------------------- SD3 / SD3.5 (MMDiT)
# diffusers src/diffusers/models/transformers/transformer_sd3.py L120-170 (SD3Transformer2DModel),
# src/diffusers/models/attention.py JointTransformerBlock (norm1 AdaLayerNormZero / SD35AdaLayerNormZeroX,
# norm1_context AdaLayerNormZero or AdaLayerNormContinuous on last block, attn(+attn2 if dual), ff, ff_context),
# attention_processor.py Attention L156-225 (qk_norm rms_norm -> RMSNorm(dim_head) weight only).
# PatchEmbed pos_embed is a buffer (embeddings.py L528) -> excluded.
def sd3(L, hd=64, in_ch=16, out_ch=16, patch=2, joint=4096, pooled=2048, qk_norm=True, dual=()):
    D = hd * L  # num_attention_heads = num_layers (convert_sd3_to_diffusers.py L316; sd-scripts sd3_models.py L798-799)
    qkn = 2 * hd if qk_norm else 0
    top = (in_ch * patch * patch * D + D) + (lin(256, D) + lin(D, D)) + (lin(pooled, D) + lin(D, D)) + lin(joint, D)
    out = lin(D, 2 * D) + lin(D, patch * patch * out_ch)
    ff = lin(D, 4 * D) + lin(4 * D, D)
    blocks = 0
    for i in range(L):
        last = i == L - 1
        b = lin(D, 9 * D) if i in dual else lin(D, 6 * D)  # norm1
        b += lin(D, 2 * D) if last else lin(D, 6 * D)  # norm1_context
        # joint attention: to_q/k/v/out + add_q/k/v (+ to_add_out unless context_pre_only) + qk norms (+added)
        b += 4 * lin(D, D) + 3 * lin(D, D) + (0 if last else lin(D, D)) + 2 * qkn
        if i in dual:
            b += 4 * lin(D, D) + qkn
        b += ff + (0 if last else ff)
        blocks += b
    return dict(total=top + blocks + out, blocks=blocks, hidden=D, non_block=top + out)


# ---------------------------------------------------------------- Wan 2.1 (original WanModel)
# wan/modules/model.py: WanRMSNorm L73-79, WanSelfAttention L123-128, WanAttentionBlock L259-276,
# Head L320-335, WanModel L383-476; configs wan/configs/wan_t2v_{1_3B,14B}.py
def wan(dim, ffn, heads, layers, in_dim=16, out_dim=16, text_dim=4096, freq_dim=256, patch=(1, 2, 2)):
    p = patch[0] * patch[1] * patch[2]
    attn = 4 * lin(dim, dim) + 2 * dim  # q,k,v,o + norm_q,norm_k (RMSNorm(dim))
    block = attn + 2 * dim + attn + lin(dim, ffn) + lin(ffn, dim) + 6 * dim  # self, norm3 affine, cross, ffn, modulation
    top = (in_dim * dim * p + dim) + lin(text_dim, dim) + lin(dim, dim) + lin(freq_dim, dim) + lin(dim, dim) + lin(dim, 6 * dim)
    head = lin(dim, out_dim * p) + 2 * dim
    return dict(total=top + layers * block + head, blocks=layers * block, per_block=block, non_block=top + head)


# ---------------------------------------------------------------- CogVideoX 1.0
# diffusers cogvideox_transformer_3d.py L38-117 (block), L223-330 (model); CogVideoXLayerNormZero
# (normalization.py: Linear(cond, 6*dim) + LayerNorm(dim, affine)); Attention qk_norm="layer_norm"
# (LayerNorm(dim_head) affine), bias=True; CogVideoXPatchEmbed (embeddings.py: Conv2d + text_proj).
# 2B: sincos pos-embedding buffer; 5B: RoPE (no learned pos-emb for T2V).
def cogvideox(heads, layers, hd=64, in_ch=16, out_ch=16, patch=2, t_dim=512, text_dim=4096):
    D = heads * hd
    norm0 = lin(t_dim, 6 * D) + 2 * D
    attn = 4 * lin(D, D) + 2 * (2 * hd)
    block = 2 * norm0 + attn + lin(D, 4 * D) + lin(4 * D, D)
    top = (in_ch * patch * patch * D + D) + lin(text_dim, D) + lin(D, t_dim) + lin(t_dim, t_dim)
    out = 2 * D + (lin(t_dim, 2 * D) + 2 * D) + lin(D, patch * patch * out_ch)
    return dict(total=top + layers * block + out, blocks=layers * block, per_block=block, hidden=D)


# ---------------------------------------------------------------- LTX-Video
# diffusers transformer_ltx.py: LTXAttention L115-154 (norm_q/norm_k RMSNorm(inner) affine, bias),
# LTXVideoTransformerBlock L282-342 (norm1/norm2 RMSNorm no affine, attn1, attn2, ff, scale_shift_table 6xD),
# model L433-490; AdaLayerNormSingle (normalization.py) = TimestepEmbedding(256,D) + Linear(D,6D);
# PixArtAlphaTextProjection = Linear(cap,D)+Linear(D,D). configs: scripts/convert_ltx_to_diffusers.py L195-231
def ltx(heads, hd, layers, cross_dim, in_ch=128, out_ch=128, cap=4096):
    D = heads * hd
    attn1 = 2 * D + lin(D, D) + 2 * lin(D, D) + lin(D, D)
    attn2 = 2 * D + lin(D, D) + 2 * lin(cross_dim, D) + lin(D, D)
    block = attn1 + attn2 + lin(D, 4 * D) + lin(4 * D, D) + 6 * D
    top = lin(in_ch, D) + 2 * D + (lin(256, D) + lin(D, D) + lin(D, 6 * D)) + (lin(cap, D) + lin(D, D))
    out = lin(D, out_ch)
    return dict(total=top + layers * block + out, blocks=layers * block, per_block=block, hidden=D)


# ---------------------------------------------------------------- Qwen-Image
# diffusers transformer_qwenimage.py: QwenTimestepProjEmbeddings L207-215, QwenImageTransformerBlock L633-679,
# model L860-906 (txt_norm RMSNorm(3584), img_in, txt_in, norm_out, proj_out). Attention with
# added_kv_proj_dim=dim, context_pre_only=False, qk_norm rms_norm -> 4 RMSNorm(hd).
def qwen_image(L=60, hd=128, heads=24, in_ch=64, out_ch=16, patch=2, joint=3584):
    D = hd * heads
    ff = lin(D, 4 * D) + lin(4 * D, D)
    attn = 4 * lin(D, D) + 4 * lin(D, D) + 4 * hd
    block = 2 * lin(D, 6 * D) + attn + 2 * ff
    top = lin(256, D) + lin(D, D) + joint + lin(in_ch, D) + lin(joint, D)
    out = lin(D, 2 * D) + lin(D, patch * patch * out_ch)
    return dict(total=top + L * block + out, blocks=L * block, per_block=block, hidden=D)


# ---------------------------------------------------------------- PixArt-Sigma
# diffusers scripts/convert_pixart_sigma_to_diffusers.py (Transformer2DModel kwargs), BasicTransformerBlock
# norm_type ada_norm_single: attn1 + attn2 (cross, cross_attention_dim=1152) with bias, ff 4x, scale_shift_table 6xD;
# top: PatchEmbed conv, AdaLayerNormSingle, caption_projection; out: scale_shift_table 2xD + proj_out.
# use_additional_conditions assumed False (convert script arg --micro_condition default) -> no size embedders.
def pixart(D=1152, layers=28, in_ch=4, out_ch=8, patch=2, cap=4096, cross=1152):
    block = 4 * lin(D, D) + (2 * lin(D, D) + 2 * lin(cross, D)) + lin(D, 4 * D) + lin(4 * D, D) + 6 * D
    top = (in_ch * patch * patch * D + D) + (lin(256, D) + lin(D, D) + lin(D, 6 * D)) + (lin(cap, D) + lin(D, D))
    out = 2 * D + lin(D, patch * patch * out_ch)
    return dict(total=top + layers * block + out, blocks=layers * block, per_block=block, hidden=D)


# ---------------------------------------------------------------- Sana 1600M (SanaMS_1600M_P1_D20)
# diffusers sana_transformer.py: GLUMBConv L38-60 (conv_inverted 1x1 D->2h, depthwise 3x3 on 2h, conv_point h->D no bias),
# SanaTransformerBlock L188-244 (attn1 linear attention: q,k,v bias=attention_bias(False), to_out bias; attn2 cross 20x112 bias;
# scale_shift_table 6xD), model L342-413 (patch_embed 1x1 conv, AdaLayerNormSingle, caption_projection 2304->D, caption_norm RMSNorm(D)).
# config: scripts/convert_sana_to_diffusers.py L403-410, L230-242 (in_channels 32, caption 2304, mlp_ratio 2.5, patch 1)
def sana(D=2240, layers=20, cross_heads=20, cross_hd=112, in_ch=32, out_ch=32, cap=2304, mlp_ratio=2.5):
    C = cross_heads * cross_hd
    h = int(mlp_ratio * D)
    attn1 = 3 * D * D + lin(D, D)
    attn2 = lin(D, C) + 2 * lin(D, C) + lin(C, D)
    ff = (D * 2 * h + 2 * h) + (2 * h * 9 + 2 * h) + h * D
    block = attn1 + attn2 + ff + 6 * D
    top = (in_ch * D + D) + (lin(256, D) + lin(D, D) + lin(D, 6 * D)) + (lin(cap, D) + lin(D, D)) + D
    out = 2 * D + lin(D, out_ch)
    return dict(total=top + layers * block + out, blocks=layers * block, per_block=block, hidden=D)


# HunyuanVideo double/single blocks have the same parameter-bearing layout as FLUX (HunyuanVideo
# hyvideo/modules/models.py MMDoubleStreamBlock L21-125, MMSingleStreamBlock L255-320, qkv_bias=True at model
# level L462, qk RMSNorm(head_dim) affine, ModulateDiT Linear(H, factor*H) with bias). Config models.py L742-760.
# Non-block parts (SingleTokenRefiner text projection, PatchEmbed Conv3d, embedders, final layer) NOT computed.
def hunyuanvideo_blocks(H=3072, heads=24, depth=20, depth_single=40):
    f = flux(H=H, heads=heads, depth=depth, depth_single=depth_single)
    return dict(blocks=depth * f["per_double"] + depth_single * f["per_single"], per_double=f["per_double"], per_single=f["per_single"])


# HiDream-I1 (diffusers transformer_hidream_image.py): HiDreamImageFeedForwardSwiGLU keeps
# int(2*hidden/3) rounded up to a multiple of 256 (w1, w3: D -> h; w2: h -> D; no bias);
# MOEFeedForwardSwiGLU = a shared expert (hidden 2D), `experts` routed ones (hidden 4D) and a
# gate (experts x D); HiDreamAttention: to_q/k/v/out with bias and q/k RMSNorm(D), doubled
# (`*_t`) in a double-stream block; adaLN Linear(D, 12D) / Linear(D, 6D) with bias. Outside
# the blocks: t_embedder (256 -> D -> D), p_embedder (text_emb -> D -> D), x_embedder
# (in_ch * p^2 -> D), the final layer (adaLN D -> 2D, linear D -> p^2 * out_ch) and
# depth + depth_single + 1 caption projections (cap -> D, no bias).
def hidream(D=2560, depth=16, depth_single=32, experts=4, text_emb=2048, cap=4096, in_ch=16, patch=2, out_ch=16):
    lin = lambda i, o: i * o + o

    def swiglu(hidden):
        h = int(2 * hidden / 3)
        h = 256 * ((h + 255) // 256)
        return 3 * D * h

    moe = swiglu(2 * D) + experts * swiglu(4 * D) + experts * D
    attn = lambda streams: streams * (4 * lin(D, D) + 2 * D)
    double = lin(D, 12 * D) + attn(2) + moe + swiglu(4 * D)
    single = lin(D, 6 * D) + attn(1) + moe
    outside = (lin(256, D) + lin(D, D)) + (lin(text_emb, D) + lin(D, D)) + lin(in_ch * patch * patch, D) \
        + lin(D, 2 * D) + lin(D, patch * patch * out_ch) + (depth + depth_single + 1) * cap * D
    return dict(total=outside + depth * double + depth_single * single, per_double=double, per_single=single,
                non_block=outside)


if __name__ == "__main__" and "--check" not in sys.argv:
    rows = {
        "flux.1-dev": flux(guidance=True),
        "flux.1-schnell": flux(guidance=False),
        "sd3-medium(3.0)": sd3(24, qk_norm=False),
        "sd3.5-medium": sd3(24, qk_norm=True, dual=tuple(range(13))),
        "sd3.5-large": sd3(38, qk_norm=True),
        "wan2.1-1.3b": wan(1536, 8960, 12, 30),
        "wan2.1-14b": wan(5120, 13824, 40, 40),
        "cogvideox-2b": cogvideox(30, 30),
        "cogvideox-5b": cogvideox(48, 42),
        "ltx-video-2b(0.9.x)": ltx(32, 64, 28, 2048),
        "ltx-video-13b(0.9.7)": ltx(32, 128, 48, 4096),
        "qwen-image": qwen_image(),
        "pixart-sigma": pixart(),
        "sana-1.6b": sana(),
        "hunyuanvideo(blocks only)": hunyuanvideo_blocks(),
        "hidream-i1": hidream(),
    }
    for k, v in rows.items():
        print(f"{k:24s} " + " ".join(f"{a}={b:,}" for a, b in v.items()))


# ---------------------------------------------------------------- AutoencoderKL (SD/SDXL z=4, SD3/Flux z=16)
# sd-scripts library/flux_models.py: AttnBlock L63-73, ResnetBlock L93-105, Downsample L123-127,
# Upsample L136-139, Encoder L147-195, Decoder L221-273 (ch=128, ch_mult=[1,2,4,4], num_res_blocks=2, L398-404).
# quant_conv/post_quant_conv (1x1) exist in SD1.x/SDXL diffusers AutoencoderKL only (use_quant_conv).
def vae_kl(z, ch=128, mult=(1, 2, 4, 4), nres=2, quant_conv=False):
    conv = lambda i, o, k=3: i * o * k * k + o
    gn = lambda c: 2 * c
    res = lambda i, o: gn(i) + conv(i, o) + gn(o) + conv(o, o) + (conv(i, o, 1) if i != o else 0)
    attn = lambda c: gn(c) + 4 * conv(c, c, 1)
    enc = conv(3, ch)
    cin = ch
    for lvl, m in enumerate(mult):
        cout = ch * m
        for _ in range(nres):
            enc += res(cin, cout); cin = cout
        if lvl != len(mult) - 1:
            enc += conv(cin, cin)
    enc += res(cin, cin) + attn(cin) + res(cin, cin) + gn(cin) + conv(cin, 2 * z)
    dec = conv(z, cin) + res(cin, cin) + attn(cin) + res(cin, cin)
    for lvl in reversed(range(len(mult))):
        cout = ch * mult[lvl]
        for _ in range(nres + 1):
            dec += res(cin, cout); cin = cout
        if lvl != 0:
            dec += conv(cin, cin)
    dec += gn(cin) + conv(cin, 3)
    q = (conv(2 * z, 2 * z, 1) + conv(z, z, 1)) if quant_conv else 0
    return dict(total=enc + dec + q, encoder=enc, decoder=dec, quant_convs=q)


def clip_text(L, D, M, V=49408, P=77, proj=0):
    # transformers CLIPTextModel: token+pos embeddings, L x (q,k,v,o with bias, 2 LN, fc1/fc2), final LN (+text_projection no bias)
    per = 4 * (D * D + D) + D * M + M + M * D + D + 4 * D
    return V * D + P * D + L * per + 2 * D + proj


def t5_encoder(L=24, D=4096, F=10240, V=32128, H=64, buckets=32, inner=4096):
    # T5EncoderModel v1.1 (gated-gelu, no biases): shared emb, L x (q,k,v,o + wi_0,wi_1,wo + 2 RMS weights),
    # relative_attention_bias in layer 0 only, final_layer_norm. Config: sd-scripts library/flux_utils.py L360-394
    return V * D + L * (4 * D * inner + 3 * D * F + 2 * D) + buckets * H + D


def vit(L, D, M, p, img):
    # ViT backbone (no classifier head); verified exactly against keras-hub vit_presets.py counts
    n = (img // p) ** 2 + 1
    per = 4 * (D * D + D) + (D * M + M) + (M * D + D) + 4 * D
    return L * per + 3 * p * p * D + D + D + n * D + 2 * D


def whisper(L, D, V, mels=80, enc_pos=1500, dec_pos=448):
    # WhisperForConditionalGeneration backbone (proj_out tied); verified exactly against keras-hub whisper_presets.py
    attn = 4 * D * D + 3 * D  # k_proj has no bias
    mlp = D * 4 * D + 4 * D + 4 * D * D + D
    enc = mels * D * 3 + D + D * D * 3 + D + enc_pos * D + L * (attn + mlp + 4 * D) + 2 * D
    dec = V * D + dec_pos * D + L * (2 * attn + mlp + 6 * D) + 2 * D
    return dict(total=enc + dec, encoder=enc, decoder=dec)


if __name__ == "__main__" and "--check" not in sys.argv:
    print("--- encoders / VAEs / vision / speech")
    extra = {
        "vae_kl_z16(flux/sd3)": vae_kl(16),
        "vae_kl_z4(sd1.5/sdxl)": vae_kl(4, quant_conv=True),
        "clip-l text (no proj)": dict(total=clip_text(12, 768, 3072)),
        "clip-l text (+proj)": dict(total=clip_text(12, 768, 3072, proj=768 * 768)),
        "clip-g/bigG text (+proj)": dict(total=clip_text(32, 1280, 5120, proj=1280 * 1280)),
        "t5-v1.1-xxl encoder": dict(total=t5_encoder()),
        "vit-b/16@224": dict(total=vit(12, 768, 3072, 16, 224)),
        "vit-l/16@224": dict(total=vit(24, 1024, 4096, 16, 224)),
        "vit-h/14@224": dict(total=vit(32, 1280, 5120, 14, 224)),
        "whisper-small": whisper(12, 768, 51865),
        "whisper-medium": whisper(24, 1024, 51865),
        "whisper-large-v2": whisper(32, 1280, 51865),
        "whisper-large-v3(128 mel, +1 token)": whisper(32, 1280, 51866, mels=128),
    }
    for k, v in extra.items():
        print(f"{k:36s} " + " ".join(f"{a}={b:,}" for a, b in v.items()))
    # cross-check: keras-hub stable_diffusion_3_presets.py totals (CLIP-L + CLIP-G + MMDiT + VAE, no T5)
    # MMDiT there includes the pos_embed table (a buffer in diffusers) -> add pos_embed_max_size^2 * D
    keras = {"sd3-medium(3.0)": (2987080931, 192), "sd3.5-medium": (3371793763, 384), "sd3.5-large": (9048410595, 192)}
    for k, (tot, pmax) in keras.items():
        m = rows[k]
        mm = m["total"] + pmax * pmax * m["hidden"]
        print(f"keras check {k}: mmdit+pos={mm:,} remainder(clipL+clipG+vae)={tot - mm:,}")
    print("clipL(+proj)+clipG(+proj)+vae_z16 =", f"{clip_text(12,768,3072,proj=768*768)+clip_text(32,1280,5120,proj=1280*1280)+vae_kl(16)['total']:,}")


# ---------------------------------------------------------------- --check (run by crates/tunefit-core/tests/families_data.rs)
# Holds components.csv to these counters and to the two published totals they were verified against.
def check():
    import csv
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    rows = list(csv.DictReader(open(os.path.join(here, "components.csv"))))
    got = {(r["preset_id"], r["component"].split(" ")[0]): r["params"] for r in rows}
    want = {
        ("flux.1-dev", "transformer"): flux(guidance=True)["total"],
        ("flux.1-schnell", "transformer"): flux(guidance=False)["total"],
        ("sd3.5-medium", "transformer"): sd3(24, qk_norm=True, dual=tuple(range(13)))["total"],
        ("sd3.5-large", "transformer"): sd3(38, qk_norm=True)["total"],
        ("wan2.1-1.3b", "transformer"): wan(1536, 8960, 12, 30)["total"],
        ("wan2.1-14b", "transformer"): wan(5120, 13824, 40, 40)["total"],
        ("cogvideox-2b", "transformer"): cogvideox(30, 30)["total"],
        ("cogvideox-5b", "transformer"): cogvideox(48, 42)["total"],
        ("qwen-image", "transformer"): qwen_image()["total"],
        ("pixart-sigma", "transformer"): pixart()["total"],
        ("sana-1.6b", "transformer"): sana()["total"],
        ("hidream-i1-full", "transformer"): hidream()["total"],
        ("flux.1-dev", "vae"): vae_kl(16)["total"],
        ("sd3.5-large", "text_encoder_3"): t5_encoder(),
        ("vit-l", "vision"): vit(24, 1024, 4096, 16, 224),
        ("whisper-large-v3", "encoder-decoder"): whisper(32, 1280, 51866, mels=128)["total"],
    }
    bad = []
    for k, v in want.items():
        if k not in got:
            bad.append(f"{k}: no row in components.csv")
        elif got[k] != str(v):
            bad.append(f"{k}: components.csv {got[k]} != counted {v}")
    # Published totals the counters reproduce exactly (README.md, "How exact the parameter counts are").
    lora = 19 * 4 * 4 * (3072 + 3072) + 38 * 3 * 4 * 6144
    if flux(guidance=True)["total"] + lora != 11906077760 or lora != 4669440:
        bad.append("FLUX.1-dev + rank-4 LoRA != the HF blog's 11,906,077,760 / 4,669,440")
    rest = clip_text(12, 768, 3072, proj=768 * 768) + clip_text(32, 1280, 5120, proj=1280 * 1280) + vae_kl(16)["total"]
    for (L, qk, dual, pmax, tot) in [(24, False, (), 192, 2987080931), (24, True, tuple(range(13)), 384, 3371793763),
                                     (38, True, (), 192, 9048410595)]:
        m = sd3(L, qk_norm=qk, dual=dual)
        if m["total"] + pmax * pmax * m["hidden"] + rest != tot:
            bad.append(f"SD3 (depth {L}) + CLIP-L + CLIP-G + VAE != keras-hub's {tot}")
    for r in rows:
        # A count needs its source; a component without one says so in its note.
        if (r["params"] and not r["params_source"]) or not r["date_read"] or not (r["params"] or r["note"] or r["params_kind"]):
            bad.append(f"{r['preset_id']} {r['component']}: a count without a source, or no date")
    measured = list(csv.DictReader(open(os.path.join(here, "measured.csv"))))
    for r in measured:
        if not (r["source"] and r["figure_gb"] and r["figure_kind"] and r["date_read"]):
            bad.append(f"measured.csv row {r['id']}: a figure needs its source, kind and date")
    print("\n".join(bad) if bad else
          f"components.csv: {len(want)} counts and 4 published totals agree; measured.csv: {len(measured)} sourced rows")
    return not bad


if __name__ == "__main__" and "--check" in sys.argv:
    sys.exit(0 if check() else 1)
