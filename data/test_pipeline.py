#!/usr/bin/env python3
"""Unit tests of data/pipeline.py on small made-up inputs (run by crates/tunefit-core/tests/pipeline.rs):

    python3 data/test_pipeline.py
"""
import csv
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pipeline  # noqa: E402

GPUS = "id,fabric\nh100-sxm,nvlink\nh100-pcie,bridge\na100-40gb,nvlink\nl40s,pcie\n"
CATALOG = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
           "cpu_4x,,,4,16,0.2,us-east-1,,\n"
           "gpu_8x_h100_sxm5,H100,8.0,208,1800,31.92,us-east-1,,\n"
           "gpu_8x_h100_sxm5,H100,8.0,208,1800,31.92,us-west-1,,\n"
           "gpu_8x_h100_big,H100,8.0,256,2000,35.00,us-east-1,,\n"
           "gpu_1x_h100_pcie,H100,1.0,26,200,3.29,us-east-1,,5.00\n"
           "gpu_2x_h100_nvlink,H100-80G-PCIe-NVLink,2,52,400,6.00,us-east-1,,\n"
           "gpu_1x_a100,A100,1.0,30,200,1.99,us-east-1,\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 40960}}]}\",\n"
           "gpu_1x_rtx6000,RTX6000,1.0,14,46,0.69,us-east-1,,\n")
PAGE_HEAD = ",".join(pipeline.PAGE_COLUMNS) + "\n"


def page(provider="lambda", gpu="h100-sxm", count=1, price="4.00", instance="", date="2026-11-01", note="", region="us-east-1",
         currency="USD"):
    return (f"{provider},,,{gpu},{count},{price},,{currency},{region},{instance},a page,https://example.com/pricing,{date},"
            f"medium,{note}\n")


class PipelineTest(unittest.TestCase):
    def run_pipeline(self, pages, read_on="2026-12-03", commit_date=""):
        d = tempfile.mkdtemp()
        for name, text in [("gpus.csv", GPUS), ("pages.csv", PAGE_HEAD + "".join(pages)), ("lambda.csv", CATALOG)]:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        snap = {"lambda": {"cloud": "lambda", "commit": "a" * 40, "read_on": read_on, "commit_date": commit_date}}
        text = pipeline.build(d, snap, pages_path=os.path.join(d, "pages.csv"), gpus_path=os.path.join(d, "gpus.csv"))
        return list(csv.DictReader(text.splitlines()))

    def test_catalog_shapes_map_to_gpu_ids_and_keep_the_cheapest_instance(self):
        rows = self.run_pipeline([])
        got = {(r["gpu"], r["count"], r["gpu_link"]): r for r in rows}
        self.assertEqual(set(got), {("h100-sxm", "8", "nvlink"), ("h100-pcie", "1", "none"), ("h100-pcie", "2", "bridge"),
                                    ("a100-40gb", "1", "none")})  # RTX6000 (Turing) is no project GPU
        h = got[("h100-sxm", "8", "nvlink")]
        self.assertEqual((h["instance"], h["on_demand_usd_h"], h["region"]), ("gpu_8x_h100_sxm5", "31.92", "us-east-1 / us-west-1"))
        self.assertEqual(got[("h100-pcie", "1", "none")]["spot_usd_h"], "", "a spot price above on-demand is no spot market")
        self.assertTrue(h["url"].startswith("https://github.com/skypilot-org/skypilot-catalog/blob/" + "a" * 40))
        self.assertEqual((h["snapshot_date"], h["currency"]), ("2026-12-03", "USD"))

    def test_gpu_names_spelled_in_the_instance_type_or_by_other_catalogs(self):
        g = pipeline.gpu_id
        self.assertEqual(g("A100", "intel-ice-lake-a100-pci_1x2v4gb", 81920), "a100-pcie-80gb")  # Cudo
        self.assertEqual(g("H100", "1x-H100_NVL-32-65536", 95830), "h100-nvl")  # Vast
        self.assertEqual(g("H100-80G-PCIe-NVLink", "gpu_2x_h100_nvlink", None), "h100-pcie")  # NVLink is no NVL
        self.assertEqual(g("H100", "n3-H100x8-NVLink", None), "h100-sxm")
        self.assertEqual(g("RTX PRO Server 6000", "g7e.2xlarge", 98304), "rtx-pro-6000")  # AWS
        self.assertEqual(g("RTXPRO6000S", "1x-RTX_PRO_6000_S-32-65536", 97887), "rtx-pro-6000")  # Vast

    def test_vast_lists_the_gpu_memory_of_the_whole_instance(self):
        d = tempfile.mkdtemp()
        with open(os.path.join(d, "vast.csv"), "w") as f:
            f.write("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
                    "2x-A100_SXM4-32-65536,A100,2,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': "
                    "{'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 81920}\",1.49,0.00,\"Slovenia, SI, EU\"\n")
        snap = {"vast": {"cloud": "vast", "commit": "b" * 40, "read_on": "2026-12-04", "commit_date": ""}}
        rows = pipeline.catalog_rows(d, snap, {"a100-40gb": "nvlink", "a100-80gb": "nvlink"})
        self.assertEqual([(r["gpu"], r["count"], r["spot"]) for r in rows], [("a100-40gb", 2, None)])

    def test_gcp_instances_add_the_host_to_the_gpus_in_the_same_zone(self):
        d = tempfile.mkdtemp()
        with open(os.path.join(d, "gcp.csv"), "w") as f:
            f.write("InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,"
                    "SpotPrice\n"
                    "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.73948,0.36975\n"
                    "a2-highgpu-1g,12.0,85.0,,,,me-west1,me-west1-a,0.81342,0.33516\n"
                    "n1-highmem-4,4.0,26.0,,,,us-central1,us-central1-a,0.23661,0.06466\n"
                    "n1-standard-4,4.0,15.0,,,,us-central1,us-central1-a,0.19,0.05223\n"
                    "n1-standard-8,8.0,30.0,,,,us-central1,us-central1-a,0.38,0.1\n"
                    ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-a,2.93391,1.4341\n"
                    ",,,T4,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-a,0.35,0.175\n"
                    ",,,T4,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-east1,us-east1-b,0.3,0.1\n"
                    ",,,tpu-v2-8,1,tpu-v2-8,us-central1,us-central1-a,4.5,1.35\n")
        snap = {"gcp": {"cloud": "gcp", "commit": "d" * 40, "read_on": "2026-12-04", "commit_date": ""}}
        rows = pipeline.catalog_rows(d, snap, {"a100-40gb": "nvlink", "t4": "pcie"})
        got = {(r["gpu"], r["instance"]): (round(r["on_demand"], 5), round(r["spot"], 5), r["region"]) for r in rows}
        # A2 bundles its GPU: host 0.73948 + GPU 2.93391, in the GPU row's own zone.
        self.assertEqual(got[("a100-40gb", "a2-highgpu-1g")], (3.67339, 1.80385, "us-central1"))
        # An N1-attached T4 takes SkyPilot's default host: 4+ vCPUs and 4 GiB per vCPU, the cheapest
        # (n1-standard-4 has 15 GiB, too little); a zone with no host prices no instance.
        self.assertEqual(got[("t4", "n1-highmem-4")], (0.58661, 0.23966, "us-central1"))
        self.assertEqual(len(rows), 2, "no TPU and no T4 without a host")

    def test_shadeform_rows_name_their_provider(self):
        d = tempfile.mkdtemp()
        with open(os.path.join(d, "shadeform.csv"), "w") as f:
            f.write("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
                    "paperspace_H100,H100,1.0,16.0,268,5.99,newyork-usa-1,,\n"
                    "scaleway_H100,H100,1.0,24.0,240,3.3,paris-france-1,,\n"
                    "massedcompute_A100-80GB,A100-80GB,1.0,12.0,64,1.35,kansascity-usa-1,,\n"
                    "massedcompute_A100-sxm4-80GB,A100-80GB,1.0,14.0,100,1.38,desmoines-usa-1,,\n"
                    "lambdalabs_H100,H100,1.0,26.0,200,4.29,saltlakecity-usa-1,,\n")
        snap = {"shadeform": {"cloud": "shadeform", "commit": "e" * 40, "read_on": "2026-12-04", "commit_date": ""}}
        fabrics = {"h100-sxm": "nvlink", "h100-pcie": "bridge", "a100-80gb": "nvlink", "a100-pcie-80gb": "bridge"}
        rows = pipeline.catalog_rows(d, snap, fabrics)
        self.assertEqual([(r["provider"], r["via"], r["gpu"], r["on_demand"]) for r in rows],
                         [("paperspace", "shadeform", "h100-sxm", 5.99), ("scaleway", "shadeform", "h100-pcie", 3.3),
                          ("massed-compute", "shadeform", "a100-pcie-80gb", 1.35),
                          ("massed-compute", "shadeform", "a100-80gb", 1.38)])  # Lambda: read from its own catalog

    def test_derived_rows_are_dropped(self):
        rows = self.run_pipeline([page(gpu="l40s", count=1, price="1.00"),
                                  page(gpu="l40s", count=8, price="8.00", note="derived: per-GPU price x 8")])
        self.assertEqual([r["count"] for r in rows if r["gpu"] == "l40s"], ["1"])

    def test_duplicates_keep_the_newest_reading(self):
        rows = self.run_pipeline([page(gpu="l40s", price="1.00", date="2026-08-01"),
                                  page(gpu="l40s", price="1.20", date="2026-10-01")])
        self.assertEqual([r["on_demand_usd_h"] for r in rows if r["gpu"] == "l40s"], ["1.2"])
        # A dated page beats a catalog commit whose own date is unknown, even one read later...
        rows = self.run_pipeline([page(gpu="h100-sxm", count=8, price="40.0", instance="gpu_8x_h100_sxm5", date="2026-09-01")])
        h = [r for r in rows if r["gpu"] == "h100-sxm"]
        self.assertEqual([r["on_demand_usd_h"] for r in h], ["40.0"])
        # ...but not a catalog commit of a known, later date; and an approximate date loses to both.
        rows = self.run_pipeline([page(gpu="h100-sxm", count=8, price="40.0", instance="gpu_8x_h100_sxm5", date="2026-09-01")],
                                 commit_date="2026-11-30")
        self.assertEqual([r["on_demand_usd_h"] for r in rows if r["gpu"] == "h100-sxm"], ["31.92"])
        rows = self.run_pipeline([page(gpu="h100-sxm", count=8, price="40.0", instance="gpu_8x_h100_sxm5", date="~2026-09")])
        self.assertEqual([r["on_demand_usd_h"] for r in rows if r["gpu"] == "h100-sxm"], ["31.92"])
        # A page row naming no instance type reads the catalog's shape and takes its name.
        rows = self.run_pipeline([page(gpu="a100-40gb", price="2.10", region="(not stated)")])
        a = [r for r in rows if r["gpu"] == "a100-40gb"]
        self.assertEqual([(r["on_demand_usd_h"], r["instance"], r["region"]) for r in a], [("2.1", "gpu_1x_a100", "us-east-1")])
        # Other shapes, or other regions of one source, are other offers.
        rows = self.run_pipeline([page(gpu="l40s", price="1.00", region="eu"), page(gpu="l40s", price="1.10", region="us")])
        self.assertEqual(len([r for r in rows if r["gpu"] == "l40s"]), 2)

    def test_prices_keep_their_currency(self):
        rows = self.run_pipeline([page(gpu="l40s", price="150.0", currency="RUB")])
        self.assertEqual([(r["on_demand_usd_h"], r["currency"]) for r in rows if r["gpu"] == "l40s"], [("150.0", "RUB")])

    def test_every_row_has_an_exact_or_marked_date_and_a_url(self):
        for bad in [page(date="2026-11"), page(date="Nov 2026")]:
            with self.assertRaises(AssertionError):
                self.run_pipeline([bad])
        with self.assertRaises(AssertionError):
            self.run_pipeline([page().replace("https://example.com/pricing", "")])
        self.run_pipeline([page(date="~2026-09")])

    def test_a_newer_snapshot_replaces_only_its_clouds(self):
        src, dest = tempfile.mkdtemp(), tempfile.mkdtemp()
        os.makedirs(os.path.join(src, "lambda"))
        with open(os.path.join(src, "lambda", "vms.csv"), "w") as f:
            f.write(CATALOG)
        with open(os.path.join(dest, "SNAPSHOT.csv"), "w") as f:
            f.write("cloud,repository_path,commit,read_on\nnebius,catalogs/v8/nebius/vms.csv," + "b" * 40 + ",2026-12-01\n")
        snap = {"lambda": {"commit": "c" * 40, "read_on": "2027-01-05", "commit_date": "2027-01-04"}}
        fabrics = {"h100-sxm": "nvlink", "h100-pcie": "bridge", "a100-40gb": "nvlink"}
        self.assertEqual(pipeline.import_snapshot(src, snap, dest, fabrics), ["lambda"])
        kept = pipeline.read_csv(os.path.join(dest, "lambda.csv"))
        self.assertEqual([r["InstanceType"] for r in kept], ["gpu_8x_h100_sxm5", "gpu_8x_h100_sxm5", "gpu_8x_h100_big",
                                                            "gpu_1x_h100_pcie", "gpu_2x_h100_nvlink", "gpu_1x_a100"])
        self.assertIn("SizeInMiB", kept[-1]["GpuInfo"], "SkyPilot's columns are copied unchanged")
        snaps = pipeline.read_snapshot(os.path.join(dest, "SNAPSHOT.csv"))
        self.assertEqual(sorted(snaps), ["lambda", "nebius"])
        self.assertEqual((snaps["lambda"]["commit"], snaps["lambda"]["commit_date"]), ("c" * 40, "2027-01-04"))

    def test_the_committed_sources(self):
        rows = pipeline.read_csv(os.path.join(pipeline.HERE, "offers.csv"))
        self.assertFalse([r["id"] for r in rows if r["note"].lower().startswith("derived:")])
        for r in rows:
            self.assertTrue(pipeline.DATE.match(r["snapshot_date"]) or pipeline.APPROX.match(r["snapshot_date"]), r["id"])
            self.assertTrue(r["url"].startswith("https://"), r["id"])
            if r["snapshot_date"].startswith("~"):
                self.assertIn("date approximate", r["note"], r["id"])


if __name__ == "__main__":
    unittest.main()
