# The GPU and provider step of the data pipeline: writes data/gpus.csv and data/providers.csv from
# /work/shared/reference (kept outside the repo; the rules it applies are written into each row's
# note and into dataset.rs); data/audit_2026_12.py then applies the 2026-12 provider corrections.
# Regenerate everything with the one command
#
#     python3 data/pipeline.py
#
# which runs this step first where the reference is at hand, then writes data/offers.csv from
# data/sources/. Running it again changes nothing.
import csv, re, sys
REF = '/work/shared/reference'
import os; OUT = os.path.dirname(os.path.abspath(__file__))

def clean(s):
    return (s or '').replace(',', ';').replace('\n', ' ').strip()

# ---------------- GPUs ----------------
gid = {
 'H200 SXM':'h200','H100 SXM':'h100-sxm','H100 PCIe':'h100-pcie','H100 NVL':'h100-nvl','GH200 (96GB)':'gh200',
 'B200 (HGX)':'b200','B100':'b100','GB200 (per B200 GPU in NVL72)':'gb200','A100 80GB SXM':'a100-80gb',
 'A100 40GB SXM':'a100-40gb','A100 PCIe 80GB':'a100-pcie-80gb','L40S':'l40s','L40':'l40','L4':'l4','A10G':'a10g',
 'A10':'a10','A40':'a40','RTX 6000 Ada':'rtx-6000-ada','RTX A6000':'rtx-a6000','RTX A5000':'rtx-a5000',
 'RTX 4090':'rtx-4090','RTX 5090':'rtx-5090','RTX 3090':'rtx-3090','T4':'t4','V100 16GB (SXM2)':'v100-16gb',
 'V100 32GB (SXM2)':'v100-32gb','MI300X':'mi300x','MI325X':'mi325x','MI250X':'mi250x','Gaudi 2':'gaudi2',
 'Gaudi 3':'gaudi3','RTX PRO 6000 Blackwell':'rtx-pro-6000',
}
pro = {'rtx-6000-ada','rtx-a6000','rtx-a5000','rtx-pro-6000'}
consumer = {'rtx-4090','rtx-5090','rtx-3090'}
def fabric(ic):
    ic = ic.lower()
    if 'pcie only' in ic: return 'pcie', 0
    if 'bridge (2-4' in ic: return 'bridge', 4
    if 'bridge' in ic: return 'bridge', 2
    if 'nvlink 5 (72' in ic: return 'nvlink', 72
    if 'nvlink' in ic: return 'nvlink', 8
    if 'infinity' in ic: return 'infinity-fabric', 8
    if 'roce' in ic: return 'roce', 8
    raise Exception(ic)
PCIE_GB_S = {'3':32,'4':64,'5':128,'6':256}
rows = list(csv.DictReader(open(f'{REF}/gpus.csv')))
with open(f'{OUT}/gpus.csv','w') as f:
    cols = ['id','name','vendor','architecture','launch_year','class','vram_gb','memory_type','mem_bandwidth_gb_s',
            'fp32_tflops','tf32_tflops','bf16_tflops','fp16_tflops','fp8_tflops','fp4_tflops','int8_tops','bf16_native','fp8_native',
            'fp4_native','fabric','fabric_group','fabric_gb_s','pcie_gb_s','tdp_w','interconnect','confidence','source','date','note']
    f.write(','.join(cols)+'\n')
    for r in rows:
        i = gid[r['gpu']]
        cls = 'pro' if i in pro else 'consumer' if i in consumer else 'datacenter'
        fab, grp = fabric(r['interconnect'])
        pcie = PCIE_GB_S[r['pcie_gen']]
        fgb = r['interconnect_gb_s_per_gpu'] if fab != 'pcie' else str(pcie)
        src = 'shared/reference/gpus.csv: ' + (clean(r['notes']) or 'vendor datasheet') 
        vals = [i, clean(r['gpu']), r['vendor'], clean(r['architecture']), r['launch_year'], cls, r['vram_gb'], r['memory_type'],
                r['mem_bandwidth_gb_s'], r['fp32_tflops'], r['tf32_tflops_dense'], r['bf16_tflops_dense'], r['fp16_tflops_dense'],
                r['fp8_tflops_dense'], r['fp4_tflops_dense'], r['int8_tops_dense'], r['bf16_native'], r['fp8_native'], r['fp4_native'],
                fab, str(grp), fgb, str(pcie), r['tdp_w'], clean(r['interconnect']), r['confidence'], 'vendor datasheet via ' + src, '2026-09', '']
        f.write(','.join(vals)+'\n')

# Corrections to the reference's GPU rows, each with its source (shared/notes/data-audit.md,
# 2026-12): applied to data/gpus.csv after the rows above are written.
GPU_CORRECTIONS = {
    'a10g': {'fp32_tflops': '35', 'tf32_tflops': '35', 'bf16_tflops': '70', 'fp16_tflops': '70',
             # INT8 was copied from the A10 (250) like the tensor figures; the A10G's is unpublished.
             'int8_tops': '',
             'note': 'tensor figures corrected 2026-12: ~70 TFLOPS FP16/BF16 dense (FP32 accumulate at half rate; GeForce-style); '
                     'FP32 ~35; not the A10\'s 125 (baseten.co "NVIDIA A10 vs A10G"; shared/notes/data-audit.md); '
                     'INT8 left blank: the reference\'s 250 is the A10\'s figure'},
    'gaudi2': {'fabric_gb_s': '600',   # 4.8 Tb/s bidirectional (Intel Hot Chips 2024)
               'note': 'fabric corrected 2026-12 to 600 GB/s both directions added (4.8 Tb/s bidirectional; Intel Hot Chips 2024 '
                       'slides "Embedded NIC BW (bi-directional)"; shared/notes/data-audit.md)'},
    'gaudi3': {'fabric_gb_s': '1200', 'fp32_tflops': '',  # 1200 GB/s bidirectional; 28.7 is BF16 vector
               'note': 'fabric corrected 2026-12 to 1200 GB/s both directions added (Intel Hot Chips 2024 "Networking 1200 GB/s '
                       'bidirectional"); 28.7 is the BF16 vector figure; not FP32: FP32 left blank (shared/notes/data-audit.md)'},
    'h100-nvl': {'fabric_group': '2',  # the H100 NVL bridge pairs two cards
                 'note': 'bridge group corrected 2026-12: the H100 NVL bridge joins a pair of cards (the 2/4-way bridge is H200 NVL; '
                         'shared/notes/data-audit.md)'},
    'b200': {'pcie_gb_s': '128',  # PCIe Gen5
             'note': 'PCIe corrected 2026-12 to Gen5 (Gen6 arrives with B300; glennklockwood.com B300 notes; shared/notes/data-audit.md)'},
    'b100': {'pcie_gb_s': '128', 'note': 'PCIe corrected 2026-12 to Gen5 (shared/notes/data-audit.md)'},
    'gb200': {'pcie_gb_s': '128', 'note': 'PCIe corrected 2026-12 to Gen5 (shared/notes/data-audit.md)'},
}

_g = list(csv.DictReader(open(f'{OUT}/gpus.csv')))
for r in _g:
    r.update(GPU_CORRECTIONS.get(r['id'], {}))
with open(f'{OUT}/gpus.csv', 'w') as f:
    w = csv.DictWriter(f, fieldnames=list(_g[0].keys()), lineterminator='\n'); w.writeheader(); w.writerows(_g)

# GPUs the reference lacks that a late-2026 buyer rents (project issue #17; shared/notes/data-audit.md
# §1c), added 2026-12 from the pages named in each row's source. Only figures a named page states
# are filled in; a derived figure says how in the row's note, and a figure no page gave is left
# blank (INT8 and TDP are optional; a 16-bit rate is required by the time model). NVIDIA's
# sparse tensor figures are halved for the dense columns. Not added, for want of a page giving
# its tensor rates: RTX 4000 Ada (memory, FP32 and power were found; no tensor figure).
NEW_GPU_COLS = ['id','name','vendor','architecture','launch_year','class','vram_gb','memory_type','mem_bandwidth_gb_s',
                'fp32_tflops','tf32_tflops','bf16_tflops','fp16_tflops','fp8_tflops','fp4_tflops','int8_tops','bf16_native',
                'fp8_native','fp4_native','fabric','fabric_group','fabric_gb_s','pcie_gb_s','tdp_w','interconnect','confidence']
TOMS_CHINA = ('tomshardware.com/pc-components/gpus/new-nvidia-ai-gpus-designed-to-get-around-us-export-bans-come-to-china-'
              'h20-l20-and-l2-to-fill-void-left-by-restricted-models')
NV_TABLE = ("a public compilation of NVIDIA's datasheets (data cut-off 2026-09-18; found by the project's code search; it quotes each datasheet's table and footnote) ")
NEW_GPUS = [
    ('b300 | B300 (HGX) | NVIDIA | Blackwell Ultra | 2025 | datacenter | 288 | HBM3e | 8000 | 75 | 1125 | 2250 | 2250 | 4500 | 13125 |  '
     '| yes | yes | yes | nvlink | 8 | 1800 | 256 | 1400 | NVLink 5 | medium',
     'glennklockwood.com/garden/processors/B300 (HGX B300 performance table: matrix = dense and sparse columns; 288 GB HBM3e; '
     '8 TB/s; 2x 900 GB/s NVLink 5; PCIe Gen6; 1400 W maximum)',
     'dense = the table\'s matrix column (sparse is 2x); 288 GB / 8 TB/s / 1.8 TB/s NVLink / BF16 2250 also shared/notes/data-audit.md '
     '§1c; INT8 left blank: the table repeats B200\'s 4500 and no NVIDIA datasheet for Blackwell Ultra INT8 was read; TDP is the '
     '1400 W maximum (itkb.uw.cz/2026/06/nvidia-h200-vs-b300-precisions-cores.html agrees); PCIe Gen6 x16 = 256 GB/s both '
     'directions; announced GTC 2025 and shipping in DGX B300 from January 2026 (aiwiki.ai/wiki/nvidia_dgx_b300)'),
    ('mi355x | MI355X | AMD | CDNA 4 | 2025 | datacenter | 288 | HBM3e | 8000 | 157.3 |  | 2500 | 2500 | 5000 | 10000 | 5000 '
     '| yes | yes | yes | infinity-fabric | 8 | 1071 | 128 | 1400 | Infinity Fabric (7 links) | low',
     'theregister.com/2025/06/12/amd_mi355x (288 GB HBM3E; 8 TB/s; 1.4 kW; 10 PF FP4 dense and double with sparsity); '
     'svethardware.cz/amd-uvadi-akceleratory-instinct-mi350x-a-mi355x-s-288gb-pameti-hbm3e/61870 (FP32 157.3 TFLOPS; INT8 '
     '5 POPS dense and 10.1 sparse); world-today-news.com/?p=7253162 (ISSCC 2026: FP8 five petaflops); humeconsulting.co/'
     'amd-mi355x-strong-node-level-inference-but-not-yet-rack-scale (Infinity Fabric ~153 GB/s per link)',
     'BF16/FP16 not read from a datasheet: derived as half the FP8 rate (CDNA matrix cores run 16-bit at half the 8-bit rate: '
     'the MI300X row has 1307.4 and 2614.9); TF32 blank: CDNA 4 has no TF32 hardware (webtagr.com/en/links/133904; AMD\'s '
     'Alan Smith); fabric = 7 links x ~153 GB/s (8-GPU all-to-all as the MI300X row); PCIe Gen5 x16 assumed as on MI300X '
     '(not read for MI355X); 288 GB / 8 TB/s / 1400 W also shared/notes/data-audit.md §1c'),
    ('mi350x | MI350X | AMD | CDNA 4 | 2025 | datacenter | 288 | HBM3e | 8000 |  |  | 2306 | 2306 | 4612 | 9225 |  '
     '| yes | yes | yes | infinity-fabric | 8 | 1071 | 128 | 1000 | Infinity Fabric (7 links) | low',
     'tomshardware.com/pc-components/gpus/amds-instinct-mi355x-accelerator-will-consume-1-400-watts (MI350X: 288 GB HBM3E; '
     '8 TB/s; 1000 W; maximum FP4/FP6 18.45 PFLOPS with sparsity); theregister.com/2025/06/12/amd_mi355x (1 kW; about 8 '
     'percent below the MI355X\'s peak)',
     'FP4 dense = 18.45 / 2; FP8 and BF16/FP16 derived from it at the MI355X row\'s ratios (FP4 = 2x FP8 = 4x BF16): not read '
     'from a datasheet; FP32 and INT8 not found (blank); no TF32 in CDNA 4; fabric and PCIe as the MI355X row (same OAM '
     'platform; assumed); 288 GB / 8 TB/s / 1000 W also shared/notes/data-audit.md §1c'),
    ('h20 | H20 (HGX) | NVIDIA | Hopper | 2024 | datacenter | 96 | HBM3 | 4000 | 44 | 74 | 148 | 148 | 296 |  | 296 '
     '| yes | yes | no | nvlink | 8 | 900 | 128 | 400 | NVLink 4 | medium',
     TOMS_CHINA + ' (HGX H20 table: 96 GB HBM3; 4.0 TB/s; INT8/FP8 296; BF16/FP16 148; TF32 74); willitrunai.com/gpus/h20-96gb '
     '(NVLink 4.0 900 GB/s; 400 W; 148 TFLOPS FP16 dense); zangshuxian.com/new/674733024499207168 (FP32 44 TFLOPS)',
     'the table\'s figures are dense (148 FP16 dense: shared/notes/data-audit.md §1c); SXM board for 8-way HGX servers '
     '(1cnz.cn/d/2353773.html); PCIe Gen5 x16 as every Hopper part (not read for H20); China-market part'),
    ('l20 | L20 | NVIDIA | Ada Lovelace | 2023 | datacenter | 48 | GDDR6 | 864 | 59.35 | 59.8 | 119.5 | 119.5 | 239 |  | 239 '
     '| yes | yes | no | pcie | 0 | 64 | 64 | 275 | PCIe only | medium',
     TOMS_CHINA + ' (L20 PCIe table: 48 GB GDDR6; 864 GB/s; INT8/FP8 239; BF16/FP16 119.5; TF32 59.8); technical.city/pl/video/L20 '
     '(PCIe 4.0 x16; 275 W; on sale 2023-11-16); topcpu.net/en/gpu-c/a40-pcie-vs-l20 (FP32 59.35 TFLOPS)',
     'tensor figures are the table\'s dense column; PCIe Gen4 x16 = 64 GB/s both directions; China-market part'),
    ('rtx-a4000 | RTX A4000 | NVIDIA | Ampere (GA104) | 2021 | pro | 16 | GDDR6 | 448 | 19.2 |  | 76.7 | 76.7 |  |  |  '
     '| yes | no | no | pcie | 0 | 64 | 64 | 140 | PCIe only | medium',
     'ecer.com/corp/details-uuuedqa-p1bsb03-pci-express-3-0-x16-nvidia-rtx-a4000-16g-graphics-card-for-professional-video-editing.html '
     '(NVIDIA datasheet table: 16 GB GDDR6; 448 GB/s; FP32 19.2; tensor 153.4 TFLOPS; PCIe 4.0 x16; 140 W)',
     'dense FP16 = 153.4 / 2 (the datasheet\'s tensor figure is with sparsity); BF16 at the FP16 rate as on every Ampere tensor '
     'core (A100 white paper summary: jingchaozhang.github.io/A100-white-paper); TF32 and INT8 not found (blank); launch year '
     'from NVIDIA\'s April 2021 announcement (not re-read)'),
    ('gb300 | GB300 (per Blackwell Ultra GPU in NVL72) | NVIDIA | Blackwell Ultra + Grace | 2025 | datacenter | 279 | HBM3e '
     '| 8000 | 80 | 1250 | 2500 | 2500 | 5000 | 15000 | 165 | yes | yes | yes | nvlink | 72 | 1800 | 256 | 1400 '
     '| NVLink 5 (72-GPU domain) | medium',
     'verda.com/blog/gb300-nvl72-architecture (per-GPU table printed dense: FP4 15 PF; FP8 5 PF; INT8 0.165 POPS; '
     'BF16/FP16 2.5 PF; TF32 1.25 PF; FP32 80 TF; 279 GB HBM3E; 8 TB/s; 1.4 kW; NVLink 5 1.8 TB/s); ' + NV_TABLE +
     '(NVIDIA Blackwell Ultra datasheet resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-datasheet; GB300 '
     'column sparse: BF16 5 PF; FP8 10 PF; TF32 2.5 PF; INT8 330 TOPS; FP4 20 | 15 PF sparse | dense; 279 GB; 8 TB/s; up '
     'to 1400 W; PCIe Gen6 256 GB/s); glennklockwood.com/garden/processors/B300 (288 GB physical; Gen6)',
     'dense = the datasheet\'s sparse figure / 2, as Verda prints them, except FP4, which the datasheet prints as sparse | '
     'dense 20 | 15 (not 2:1); 279 GB is the datasheet\'s per-GPU memory (288 GB physical); INT8 is the datasheet\'s '
     '(Blackwell Ultra runs INT8 far below FP8); TDP is the configurable maximum; announced GTC 2025-03-18 '
     '(aiwiki.ai/wiki/nvidia_gb300_nvl72)'),
    ('h200-nvl | H200 NVL | NVIDIA | Hopper | 2024 | datacenter | 141 | HBM3e | 4800 | 60 | 417.5 | 835.5 | 835.5 '
     '| 1670.5 |  | 1670.5 | yes | yes | no | bridge | 4 | 900 | 128 | 600 | NVLink bridge (2- or 4-way) or PCIe | medium',
     NV_TABLE + '(nvidia.com/en-us/data-center/h200 spec table, H200 NVL column: FP32 60; TF32 835; BF16/FP16 1671; FP8 '
     '3341; INT8 3341 TOPS - all with sparsity; 141 GB HBM3e; 4.8 TB/s; up to 600 W configurable; 2- or 4-way NVLink bridge '
     '900 GB/s per GPU; PCIe Gen5 128 GB/s); gixtools.net/2024/11/nvidia-hpc-ai-chip-is-actually-six-chips (shipping '
     'through partners from December 2024; the bridge joins four cards)',
     'dense = sparse / 2; memory bandwidth: the product page gives 4.8 TB/s and the H200 datasheet PDF 4.2 TB/s as the '
     'same compilation reports (kept 4.8: NVIDIA\'s current page; a fine-tune is rarely bandwidth-bound); the bridge '
     'group is its 4-way maximum'),
    ('a30 | A30 | NVIDIA | Ampere (GA100) | 2021 | datacenter | 24 | HBM2 | 933 | 10.3 | 82.5 | 165 | 165 |  |  | 330 '
     '| yes | no | no | bridge | 2 | 200 | 64 | 165 | NVLink 3 bridge (2 GPUs) or PCIe | medium',
     'a GPU data-sheet quick reference (2023) quoting nvidia.com/en-us/data-center/products/a30-gpu (A30: 24 GB HBM2; '
     '933 GB/s; FP32 10.3; BF16 165; FP16 165; INT8 330 TOPS - the dense column; PCIe Gen4 64 GB/s; NVLink 200 GB/s; '
     '165 W); a reseller\'s copy of the same page (TF32 up to 165 TFLOPS - with sparsity); '
     'sysrqmts.com/en/gpus/compare/nvidia-a30-pcie-vs-nvidia-jetson-tx1-gpu (GA100; PCIe 4.0 x16; released 2021-04-12)',
     'TF32 dense = 165 / 2 (NVIDIA\'s own table prints 82); no FP8 or FP4 on Ampere; an NVLink bridge joins two cards'),
]
_g = list(csv.DictReader(open(f'{OUT}/gpus.csv')))
_ids = {r['id'] for r in _g}
for spec, source, note in NEW_GPUS:
    row = dict(zip(NEW_GPU_COLS, [v.strip() for v in spec.split('|')]))
    assert len(row) == len(NEW_GPU_COLS) and row['id'] not in _ids, row
    row.update(source=clean(source), date='2026-12', note=clean(note))
    _g.append({k: row.get(k, '') for k in _g[0].keys()})
with open(f'{OUT}/gpus.csv', 'w') as f:
    w = csv.DictWriter(f, fieldnames=list(_g[0].keys()), lineterminator='\n'); w.writeheader(); w.writerows(_g)

# ---------------- Providers ----------------
P = []  # id,name,billing,billing_min_s,billing_verified,storage_usd_gb_month,egress_usd_gb,spot,interrupt_rate_h,ssh,docker,jupyter,internode_gb_s,confidence,source,date,note
def prov(*a): P.append(a)
#    id         name           bill   min  ver  stor    egress spot  rate  ssh docker jup internode conf source date note
prov('aws','AWS','second',60,'yes',0.08,0.09,'yes',0.05,'yes','yes','yes',50,'medium','providers.csv: AWS (background knowledge + SkyPilot catalog)','2026-09','gp3 0.08/GB-month; egress 0.09/GB first 10 TB; EFA 3200 Gbps per 8-GPU node = 50 GB/s per GPU')
prov('gcp','Google Cloud','second',60,'yes',0.10,0.10,'yes',0.05,'yes','yes','yes',25,'medium','providers.csv: GCP (background knowledge + SkyPilot catalog + silybench)','2026-09','pd-balanced 0.10; egress 0.08-0.12 (midpoint); TCPXO 1600 Gbps per 8 GPUs = 25 GB/s per GPU; GPU SKU priced on top of host VM')
prov('azure','Azure','second',60,'yes','',0.087,'yes',0.05,'yes','yes','yes',50,'medium','providers.csv: Azure docs (spot) + api-evangelist finops note + datareceipts','2026-09','premium SSD price not captured; IB NDR 400 Gb/s per GPU = 50 GB/s')
prov('lambda','Lambda','minute',60,'yes',0.186,0.0,'no','','yes','yes','yes','','high','providers.csv: docs.lambda.ai/public-cloud/billing','2026-09','0.20 per GiB-month = 0.186 per GB-month; no egress fees; IB only on reserved 1-Click Clusters so on-demand instances are single-node')
prov('runpod','RunPod','second',1,'yes',0.07,0.0,'yes',0.1,'yes','yes','yes','','high','providers.csv: docs.runpod.io billing','2026-09','network volume 0.07/GB-month under 1 TB; no transfer fees; interruptible pods exist but the catalog spot column equals on-demand (not real) so no spot prices are kept; Instant Clusters unverified')
prov('vast','Vast.ai','second',1,'yes','','','yes',0.1,'yes','yes','yes','','medium','providers.csv: vast.ai pricing page transcription + docs.vast.ai','2026-10-07','storage and bandwidth prices are set per host; interruptible bids not captured; mostly single-node')
prov('coreweave','CoreWeave','hour',3600,'yes','','','yes',0.05,'yes','yes','no',50,'medium','providers.csv: coreweave.com/pricing transcription (api-evangelist)','2026-09-20','hourly list prices; InfiniBand Quantum-2 on HGX = 400 Gb/s per GPU')
prov('paperspace','Paperspace (DigitalOcean)','hour',3600,'no','','','no','','yes','yes','yes','','low','providers.csv: SkyPilot shadeform catalog; features unverified','2026-09','billing not verified: hourly assumed so cost is never understated')
prov('together','Together AI','hour',3600,'no','','','no','','yes','yes','no',50,'low','providers.csv: background knowledge only','2026-09','no offers captured; fine-tuning API priced per token')
prov('nebius','Nebius','second',1,'yes','','','yes',0.05,'yes','yes','yes',50,'high','providers.csv: docs.nebius.com (pricing; billing changes Oct 2025; compute terms) + gpuhunt','2026-09','preemptible VMs; disk price not captured; InfiniBand on 8-GPU presets')
prov('crusoe','Crusoe','hour',3600,'no','',0.0,'yes',0.05,'yes','yes','no',50,'medium','providers.csv: gpuhunt crusoe.py + background knowledge','2026-08-19','billing not verified: hourly assumed; no data-transfer fees advertised (unverified); InfiniBand clusters')
prov('hyperstack','Hyperstack','minute',60,'yes','',0.0,'no','','yes','yes','no','','medium','providers.csv: hyperstack.cloud/gpu-pricing transcription (api-evangelist)','2026-08-26','spot tier exists but rates not captured; egress commonly none (unverified)')
prov('tensordock','TensorDock','second',1,'no','','','no','','yes','yes','yes','','low','providers.csv: background knowledge only','2026-09','no offers captured')
prov('modal','Modal','second',1,'yes','','','no','','no','yes','yes','','low','providers.csv: background knowledge only','2026-09','serverless; no offers captured')
prov('jarvislabs','Jarvislabs','minute',60,'no','','','no','','yes','yes','yes','','medium','providers.csv: SkyPilot jarvislabs catalog + background knowledge','2026-09','per-minute billing unverified')
prov('oci','Oracle Cloud (OCI)','second',60,'yes',0.0255,0.0,'yes',0.05,'yes','yes','yes',50,'medium','providers.csv: SkyPilot oci catalog + gpuhunt oci.py + background knowledge','2026-09','preemptible = 50% only on VM shapes; first 10 TB egress free; RoCE 3200 Gbps per BM node')
prov('vultr','Vultr','hour',3600,'no','','','no','','yes','yes','no','','low','providers.csv: background knowledge only','2026-09','hourly with monthly cap (unverified)')
prov('fluidstack','Fluidstack','hour',3600,'no','','','no','','yes','yes','no','','low','providers.csv: background knowledge only','2026-09','no offers captured')
# Providers seen only in offers.csv (no row in providers.csv): billing assumed hourly so cost is never understated.
for pid, name, spot, src in [
    ('cudo','Cudo Compute','no','skypilot-catalog v8 cudo'),('verda','Verda (DataCrunch)','yes','skypilot-catalog v8 verda'),
    ('lium','Lium','no','skypilot-catalog v8 lium'),('seeweb','Seeweb','no','skypilot-catalog v8 seeweb'),
    ('mithril','Mithril','yes','mithril.ai/pricing + skypilot-catalog v8 mithril'),('yotta','Yotta','no','skypilot-catalog v8 yotta'),
    ('hyperbolic','Hyperbolic','no','skypilot-catalog v8 hyperbolic'),('spheron','Spheron','yes','skypilot-catalog v8 spheron'),
    ('scaleway','Scaleway','no','skypilot-catalog v8 shadeform'),('massed-compute','Massed Compute','no','skypilot-catalog v8 shadeform'),
    ('denvr','Denvr Dataworks','no','skypilot-catalog v8 shadeform'),('excess-supply','ExcessSupply','no','skypilot-catalog v8 shadeform'),
    ('latitude','Latitude.sh','no','skypilot-catalog v8 primeintellect'),('oblivus','Oblivus','no','skypilot-catalog v8 primeintellect'),
    ('prime-intellect','Prime Intellect (community hosts)','no','skypilot-catalog v8 primeintellect')]:
    prov(pid,name,'hour',3600,'no','','',spot,0.1 if spot=='yes' else '','yes','yes','no','','low','offers.csv only ('+src+'); no provider facts in reference','2026-09','billing not verified: hourly assumed so cost is never understated; storage and egress prices unknown')
with open(f'{OUT}/providers.csv','w') as f:
    f.write('id,name,billing,billing_min_s,billing_verified,storage_usd_gb_month,egress_usd_gb,spot,interrupt_rate_h,ssh,docker,jupyter,internode_gb_s,confidence,source,date,note\n')
    for p in P: f.write(','.join(clean(str(x)) for x in p)+'\n')

# ---------------- Offers ----------------
# Offers are no longer derived here: data/pipeline.py writes data/offers.csv from
# data/sources/ (SkyPilot catalog rows and transcribed pricing pages). The reference's offer rows
# were moved into data/sources/pages.csv on 2026-12-03 with the 2026-12 audit's corrections.
