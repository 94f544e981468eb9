# ascend-collect device probe: python probe.py NAME --device N (docs/probes.md)
import os
import sys

name, device = sys.argv[1], int(sys.argv[3])
import torch
import torch_npu

info = os.environ.get("ASCEND_COLLECT_PROBE_INFO")
if info:
    with open(info, "w") as f:
        f.write("torch_npu_version=%s\n" % getattr(torch_npu, "__version__", ""))
torch.npu.set_device(device)
dev = "npu:%d" % device

if name == "ones_copyback":      # fill on the device, copy back: memory and a plain kernel
    y = torch.ones(1024, device=dev).sum() / 1024
elif name == "cpu_rand_h2d":     # random on the CPU, copied to the device and back: H2D/D2H
    c = torch.rand(1024)
    y = (c.to(dev).cpu() - c).abs().max()
elif name == "matmul":           # a small matrix product: the compute units
    a = torch.ones(256, 256, device=dev)
    y = (a @ a)[0, 0]
elif name == "rand":             # the random generators on the device
    y = torch.rand(1024, device=dev).mean()
elif name == "randn":
    y = torch.randn(1024, device=dev).std()
elif name == "randint":
    y = torch.randint(0, 100, (1024,), device=dev).max()
else:
    sys.exit("unknown probe " + name)
torch.npu.synchronize()
print(y.item())
