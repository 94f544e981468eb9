#!/usr/bin/env python3
"""Builds a fake host from a sample bundle's raw state, for the collector's round trip.

    incident_host.py SAMPLE_DIR HARNESS_DIR

The sample's processes/, system/, kernel/, modules/, ascend/, logs/, extra/ and package
lists become the host's files under HARNESS_DIR/sysroot (a /proc with the process's maps,
environ, fds and threads, /sys/module with build-id notes, a /lib/modules tree of module
files and DKMS links with the sample's build ids, srcversions and times, /usr/local/Ascend,
/var/log, site-packages with dist-info metadata ...), and the tools' outputs (journal, dmesg,
npu-smi, modinfo, modprobe, dkms, lsinitramfs) become the stubs' data under
HARNESS_DIR/state. Nothing of the sample's analysis is planted: the collector must find
everything again. Prints the pid of the planted training process.
"""
import csv
import os
import re
import stat
import sys

SAMPLE, H = sys.argv[1], sys.argv[2]
ROOT = os.path.join(H, "sysroot")
STATE = os.path.join(H, "state")
HOST_MNTNS = "4026531840"


def sample(rel, mode="rb"):
    with open(os.path.join(SAMPLE, rel), mode) as f:
        return f.read()


def has(rel):
    return os.path.exists(os.path.join(SAMPLE, rel))


def host(path):
    return os.path.join(ROOT, path.lstrip("/"))


def plant(path, data, mtime=None):
    p = host(path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    if mtime:
        os.utime(p, (int(mtime), int(mtime)))


def link(path, target, mtime=None):
    p = host(path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if os.path.lexists(p):
        os.remove(p)
    os.symlink(target, p)
    if mtime:
        os.utime(p, (int(mtime), int(mtime)), follow_symlinks=False)


def state(name, data):
    p = os.path.join(STATE, name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def tsv(rel):
    with open(os.path.join(SAMPLE, rel), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def kv(rel):
    out = {}
    for line in sample(rel, "r").splitlines():
        k, _, v = line.partition("=")
        out[k] = v
    return out


def system():
    boot, up = kv("system/boot.txt"), None
    kernels = tsv("system/kernels.tsv")
    running = next(k["kver"] for k in kernels if k["running"] == "1")
    plant("/proc/sys/kernel/osrelease", running + "\n")
    plant("/proc/sys/kernel/hostname", sample("system/uname.txt", "r").split()[1] + "\n")
    plant("/proc/sys/kernel/random/boot_id", boot["boot_id"] + "\n")
    plant("/proc/stat", "cpu  1 0 1 1 0 0 0 0 0 0\nbtime %s\nprocesses 99\n" % boot["btime"])
    up = boot["uptime_s"]
    plant("/proc/uptime", "%s %s\n" % (up, up))
    plant("/proc/cmdline", sample("system/cmdline"))
    # CPU load (issue 37): the kernel's formats; the sample's own copies when it has them.
    plant("/proc/loadavg", sample("system/loadavg") if has("system/loadavg") else "0.52 0.58 0.59 3/1234 56789\n")
    plant("/proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    plant("/sys/devices/system/cpu/online", "0-191\n")
    plant("/proc/sys/kernel/tainted", sample("kernel/tainted"))
    plant("/proc/self/mountinfo", sample("mounts/mountinfo.txt"))
    plant("/etc/os-release", sample("system/os-release"))
    zone = kv("system/time.txt").get("timezone", "")
    plant("/usr/share/zoneinfo/" + zone, sample("system/localtime.tzif"))
    link("/etc/localtime", "/usr/share/zoneinfo/" + zone)
    for k in kernels:
        kd = "/lib/modules/%s" % k["kver"]
        os.makedirs(host(kd), exist_ok=True)
        if k["initramfs_mtime"]:
            plant("/boot/initrd.img-%s" % k["kver"], b"initramfs\n", k["initramfs_mtime"])
    for row in tsv("system/pci-devices.tsv"):
        d = "/sys/bus/pci/devices/" + row["address"]
        for name, col in (("vendor", "vendor"), ("device", "device"), ("class", "class"),
                          ("current_link_width", "link_width")):
            if row[col]:
                plant("%s/%s" % (d, name), row[col] + "\n")
        if row["driver"]:
            os.makedirs(host("/sys/bus/pci/drivers/" + row["driver"]), exist_ok=True)
            link(d + "/driver", "../../../bus/pci/drivers/" + row["driver"])
    for line in sample("system/devices.txt", "r").splitlines():
        dev = line.split()[-1]
        if not dev.startswith("/dev/"):
            continue
        plant(dev, b"")
        m = re.match(r"^c\S* +\d+ +\S+ +\S+ +(\d+), *(\d+) ", line)
        if m:  # a character device like the host's where we may make one (root)
            try:
                os.remove(host(dev))
                os.mknod(host(dev), 0o660 | stat.S_IFCHR, os.makedev(int(m.group(1)), int(m.group(2))))
            except OSError:
                plant(dev, b"")
    state("uname.txt", sample("system/uname.txt"))
    state("lspci.txt", sample("system/lspci.txt"))


def kernel():
    state("dmesg.txt", sample("kernel/dmesg.txt"))
    state("boots.txt", sample("kernel/boots.txt"))
    for name in os.listdir(os.path.join(SAMPLE, "kernel")):
        if name.startswith("journal-b"):
            state(name, sample("kernel/" + name))
    for name in os.listdir(os.path.join(SAMPLE, "kernel/syslog")):
        plant("/var/log/" + name, sample("kernel/syslog/" + name))


def module_bytes(name, srcversion, vermagic, build_id):
    """A module file as the collector reads it: .modinfo strings and a GNU build-id note."""
    out = b"\x7fELF fake module " + name.encode() + b"\0license=GPL\0"
    if srcversion:
        out += b"srcversion=" + srcversion.encode() + b"\0"
    out += b"depends=\0vermagic=" + vermagic.encode() + b"\0"
    if build_id:
        out += b"\x04\0\0\0\x14\0\0\0\x03\0\0\0GNU\0" + bytes.fromhex(build_id)
    return out


def modules():
    plant("/proc/modules", sample("modules/proc-modules.txt"))
    for row in tsv("modules/sysfs.tsv"):
        d = "/sys/module/" + row["name"]
        os.makedirs(host(d + "/holders"), exist_ok=True)
        for col in ("version", "srcversion", "initstate", "taint", "refcnt"):
            if row[col]:
                plant("%s/%s" % (d, col), row[col] + "\n")
        if row["build_id"]:
            plant(d + "/notes/.note.gnu.build-id",
                  b"\x04\0\0\0\x14\0\0\0\x03\0\0\0GNU\0" + bytes.fromhex(row["build_id"]))
        for h in filter(None, row["holders"].split(",")):
            link("%s/holders/%s" % (d, h), "../../" + h)
    for row in tsv("modules/tree.tsv"):
        target = row["resolved_path"] or row["path"]
        if row["target_exists"] == "1":
            plant(target, module_bytes(row["module"], row["srcversion"], row["vermagic"],
                                       row["build_id"]), row["target_mtime"])
        if row["type"] == "l":
            link(row["path"], row["link_target"], row["link_mtime"])
    deps = {}
    for line in sample("modules/modules.dep.txt", "r").splitlines():
        kver, _, rest = line.partition(":")
        deps.setdefault(kver, []).append(rest)
    times = {k["kver"]: k["modules_dep_mtime"] for k in tsv("system/kernels.tsv")}
    for kver, lines in deps.items():
        plant("/lib/modules/%s/modules.dep" % kver, "\n".join(lines) + "\n", times.get(kver))
    cfg = os.path.join(SAMPLE, "modules/config")
    for dirpath, _, files in os.walk(cfg):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), cfg)
            plant("/" + rel, sample("modules/config/" + rel))
    # DKMS: the module directory exists (the links' targets); its source link is dangling.
    link("/var/lib/dkms/davinci_ascend/1.0/source", "/usr/src/davinci_ascend-1.0")
    state("dkms-status.txt", sample("modules/dkms-status.txt"))
    if has("modules/dkms-status.txt.err"):
        state("dkms-status.err", sample("modules/dkms-status.txt.err"))
    for kind in ("modinfo", "modprobe-deps"):
        base = os.path.join(SAMPLE, "modules", kind)
        for kver in os.listdir(base):
            for f in os.listdir(os.path.join(base, kver)):
                state("%s/%s/%s" % (kind, kver, f), sample("modules/%s/%s/%s" % (kind, kver, f)))
    for f in os.listdir(os.path.join(SAMPLE, "modules/modprobe-dry-run")):
        state("modprobe-dry-run/" + f, sample("modules/modprobe-dry-run/" + f))
    for f in os.listdir(os.path.join(SAMPLE, "modules")):
        if f.startswith("initramfs-"):
            state(f, sample("modules/" + f))


def ascend():
    plant("/etc/ascend_install.info", sample("ascend/ascend_install.info"))
    drv = "/usr/local/Ascend"
    for line in sample("ascend/ascend_install.info", "r").splitlines():
        if line.startswith("Driver_Install_Path_Param="):
            drv = line.split("=", 1)[1].rstrip("/")
    plant(drv + "/driver/version.info", sample("ascend/driver-version.info"))
    plant(drv + "/firmware/version.info", sample("ascend/firmware-version.info"))
    for row in tsv("ascend/cann/index.tsv"):
        base = os.path.join(SAMPLE, "ascend/cann", row["id"])
        for dirpath, _, files in os.walk(base):
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), base)
                plant(row["install_dir"] + "/" + rel, sample("ascend/cann/%s/%s" % (row["id"], rel)))
    # Links and directories of the installation as the sample saw them.
    for row in tsv("ascend/paths.tsv"):
        if row["exists"] != "1":
            continue
        if row["type"] == "l":
            os.makedirs(host(row["resolved_path"]), exist_ok=True)
            link(row["path"], row["resolved_path"])
        elif row["type"] == "d":
            os.makedirs(host(row["resolved_path"]), exist_ok=True)
    for name in os.listdir(os.path.join(SAMPLE, "ascend/seclog")):
        plant("/var/log/ascend_seclog/" + name, sample("ascend/seclog/" + name))
    if has("ascend/hccn.conf"):
        plant("/etc/hccn.conf", sample("ascend/hccn.conf"))
    state("npu-smi-info.txt", sample("ascend/npu-smi-info.txt"))
    state("npu-smi-map.txt", sample("ascend/npu-smi-map.txt"))
    for name in os.listdir(os.path.join(SAMPLE, "ascend")):
        m = re.match(r"npu-smi-(health|usages|temp|power)-(\d+)-(\d+)(?:\.\d+)?\.txt$", name)
        if m:
            data = sample("ascend/" + name)
            if m.group(1) != "health":  # the collector writes its own sampled_utc= line
                data = b"".join(l for l in data.splitlines(True) if not l.startswith(b"sampled_utc="))
            state("npu-smi-%s-%s-%s.txt" % m.groups(), data)


def process(pid):
    p = "processes/%s/" % pid
    d = "/proc/%s" % pid
    for name in ("cmdline", "environ", "maps", "status", "stat", "mountinfo", "cgroup"):
        plant("%s/%s" % (d, name), sample(p + name))
    plant(d + "/schedstat", sample(p + "schedstat") if has(p + "schedstat") else "1830000000 257000000 8123\n")
    link(d + "/exe", sample(p + "exe.txt", "r").strip())
    link(d + "/root", "../..")
    link(d + "/ns/mnt", "mnt:[%s]" % HOST_MNTNS)
    env = dict(e.split("=", 1) for e in sample(p + "environ", "r").split("\0") if "=" in e)
    if env.get("PWD"):
        link(d + "/cwd", env["PWD"])
    for row in tsv(p + "fd.tsv"):
        link("%s/fd/%s" % (d, row["fd"]), row["target"])
    for line in sample(p + "threads.1.txt", "r").splitlines():
        m = re.match(r"^(?:/proc/\d+/)?task/(\d+)/(stat|wchan|stack):(.*)$", line)
        if m:
            plant("%s/task/%s/%s" % (d, m.group(1), m.group(2)), m.group(3) + "\n")
    link("/proc/1/ns/mnt", "mnt:[%s]" % HOST_MNTNS)
    # Packages: metadata files where the process's listing says they are.
    for row in tsv(p + "packages.tsv"):
        name, ver, loc, kind = row["name"], row["version"], row["location"], row["kind"]
        meta = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n\nDescription.\n" % (name, ver)
        stem = "%s-%s" % (re.sub(r"[-.]+", "_", name), ver)
        if kind == "dist-info":
            plant("%s/%s.dist-info/METADATA" % (loc, stem), meta)
        elif kind == "egg-info":
            plant("%s/%s.egg-info" % (loc, stem), meta)
        elif kind == "editable":  # a setup.py develop checkout: its egg-info in the project
            plant("%s/%s.egg-info/PKG-INFO" % (loc, re.sub(r"[-.]+", "_", name)), meta)
    maps = sample(p + "maps", "r")
    m = re.search(r" (/\S+/torch_npu)/lib/libtorch_npu\.so", maps)
    if m and has(p + "torch_npu-version.py"):
        plant(m.group(1) + "/version.py", sample(p + "torch_npu-version.py"))


def logs():
    for row in tsv("logs/index.tsv"):
        plant(row["original_path"], sample(row["path"]))
    extra = os.path.join(SAMPLE, "extra")
    for dirpath, _, files in os.walk(extra):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), extra)
            plant("/" + rel, sample("extra/" + rel))


def main():
    pids = sorted(os.listdir(os.path.join(SAMPLE, "processes")))
    system()
    kernel()
    modules()
    ascend()
    for pid in pids:
        process(pid)
    logs()
    # The default python3's directories (the stub prints them for `python3 -I -S`).
    dirs = sorted({r["location"] for r in tsv("python/packages.tsv")})
    state("python3-paths.txt", "".join("site=%s\n" % d for d in dirs).encode())
    print(" ".join(pids))


main()
