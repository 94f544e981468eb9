"""Host description shared by the files of system/, mounts/ and the PCI view."""
import os

from . import timeutil
from .bundle import hexid, tsv

TOOLS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TZIF = open(os.path.join(TOOLS_DIR, "data", "Asia-Shanghai.tzif"), "rb").read()


def uuid(label):
    h = hexid(label, 32)
    return "%s-%s-4%s-a%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])


class Host:
    def __init__(self, name, distro, kver, uname_version, cmdline, npus, other_kernels):
        self.name = name
        self.distro = distro
        self.kver = kver
        self.uname_version = uname_version
        self.cmdline = cmdline
        self.npus = npus                  # PCI addresses, NPU id = index
        self.other_kernels = other_kernels
        self.machine_id = hexid("machine-id " + name, 32)

    def uname(self):
        return "Linux %s %s %s aarch64 aarch64 aarch64 GNU/Linux\n" % (self.name, self.kver, self.uname_version)

    def os_release(self):
        if self.distro == "ubuntu":
            return ('PRETTY_NAME="Ubuntu 22.04.5 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
                    'VERSION="22.04.5 LTS (Jammy Jellyfish)"\nVERSION_CODENAME=jammy\nID=ubuntu\nID_LIKE=debian\n'
                    'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
                    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
                    'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
                    'UBUNTU_CODENAME=jammy\n')
        return ('NAME="openEuler"\nVERSION="22.03 (LTS-SP4)"\nID="openEuler"\nVERSION_ID="22.03"\n'
                'PRETTY_NAME="openEuler 22.03 (LTS-SP4)"\nANSI_COLOR="0;31"\n\n')

    def time_txt(self, epoch):
        e = int(epoch)
        return ("epoch=%d\nutc=%s\nlocal=%s\nutc_offset=+0800\ntimezone=Asia/Shanghai\ntz_posix=CST-8\nclk_tck=100\n"
                % (e, timeutil.utc_iso(e), timeutil.local_iso(e)))

    def boot_txt(self, boot, now):
        return "boot_id=%s\nbtime=%d\nuptime_s=%.2f\n" % (boot.boot_id, boot.btime, now - boot.start)

    def kernels_tsv(self, rows):
        return tsv(["kver", "running", "boot_default", "initramfs_mtime", "modules_dep_mtime"], rows)

    def pci_tsv(self, npu_driver):
        rows = []
        others = [("0000:00:00.0", "19e5", "a120", "060400", "pcieport", "8"),
                  ("0000:05:00.0", "19e5", "1711", "030000", "hibmc-drm", "1"),
                  ("0000:40:00.0", "19e5", "a120", "060400", "pcieport", "16"),
                  ("0000:74:02.0", "19e5", "a230", "010700", "hisi_sas_v3_hw", ""),
                  ("0000:7d:00.0", "19e5", "a222", "020000", "hns3", ""),
                  ("0000:7d:00.1", "19e5", "a222", "020000", "hns3", ""),
                  ("0000:80:00.0", "19e5", "a120", "060400", "pcieport", "16"),
                  ("0000:83:00.0", "144d", "a80a", "010802", "nvme", "4"),
                  ("0000:c0:00.0", "19e5", "a120", "060400", "pcieport", "16")]
        for o in others:
            rows.append(list(o))
        for a in self.npus:
            rows.append([a, "19e5", "d802", "120000", npu_driver, "16"])
        rows.sort(key=lambda r: r[0])
        return tsv(["address", "vendor", "device", "class", "driver", "link_width"], rows)

    def lspci(self, bound):
        blocks = [
            ("0000:00:00.0 PCI bridge [0604]: Huawei Technologies Co., Ltd. HiSilicon PCIe Root Port with Gen4 [19e5:a120] (rev 21)",
             "Kernel driver in use: pcieport"),
            ("0000:05:00.0 VGA compatible controller [0300]: Huawei Technologies Co., Ltd. Hi171x Series [iBMC Intelligent Management system chip w/VGA support] [19e5:1711] (rev 01)",
             "Kernel driver in use: hibmc-drm\n\tKernel modules: hibmc_drm"),
            ("0000:40:00.0 PCI bridge [0604]: Huawei Technologies Co., Ltd. HiSilicon PCIe Root Port with Gen4 [19e5:a120] (rev 21)",
             "Kernel driver in use: pcieport"),
            ("0000:74:02.0 Serial Attached SCSI controller [0107]: Huawei Technologies Co., Ltd. HiSilicon SAS 3.0 HBA [19e5:a230] (rev 21)",
             "Kernel driver in use: hisi_sas_v3_hw\n\tKernel modules: hisi_sas_v3_hw"),
            ("0000:7d:00.0 Ethernet controller [0200]: Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller [19e5:a222] (rev 21)",
             "Kernel driver in use: hns3\n\tKernel modules: hns3"),
            ("0000:7d:00.1 Ethernet controller [0200]: Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller [19e5:a222] (rev 21)",
             "Kernel driver in use: hns3\n\tKernel modules: hns3"),
            ("0000:80:00.0 PCI bridge [0604]: Huawei Technologies Co., Ltd. HiSilicon PCIe Root Port with Gen4 [19e5:a120] (rev 21)",
             "Kernel driver in use: pcieport"),
            ("0000:83:00.0 Non-Volatile memory controller [0108]: Samsung Electronics Co Ltd NVMe SSD Controller PM9A1/PM9A3/980PRO [144d:a80a]",
             "Subsystem: Samsung Electronics Co Ltd SSD 980 PRO [144d:a801]\n\tKernel driver in use: nvme\n\tKernel modules: nvme"),
            ("0000:c0:00.0 PCI bridge [0604]: Huawei Technologies Co., Ltd. HiSilicon PCIe Root Port with Gen4 [19e5:a120] (rev 21)",
             "Kernel driver in use: pcieport"),
        ]
        for a in self.npus:
            tail = "Subsystem: Huawei Technologies Co., Ltd. Device [19e5:3004]\n\t"
            if bound:
                tail += "Kernel driver in use: devdrv_device_driver\n\t"
            tail += "Kernel modules: drv_pcie_host"
            blocks.append(("%s Processing accelerators [1200]: Huawei Technologies Co., Ltd. Device [19e5:d802] (rev 20)" % a, tail))
        blocks.sort(key=lambda b: b[0])
        return "".join("%s\n\t%s\n" % b for b in blocks)

    def devices_txt(self, created_epoch, owner="HwHiAiUser"):
        lines = []
        for i in range(len(self.npus)):
            lines.append("crw-rw---- 1 %s %s 237, %d %s /dev/davinci%d" % (owner, owner, i, timeutil.ls_date(created_epoch), i))
        lines.append("crw-rw---- 1 %s %s 238, 0 %s /dev/davinci_manager" % (owner, owner, timeutil.ls_date(created_epoch)))
        lines.append("crw-rw---- 1 %s %s 236, 0 %s /dev/devmm_svm" % (owner, owner, timeutil.ls_date(created_epoch)))
        lines.append("crw-rw---- 1 %s %s 235, 0 %s /dev/hisi_hdc" % (owner, owner, timeutil.ls_date(created_epoch)))
        return "\n".join(lines) + "\n"


def mountinfo(distro, extra=()):
    root_fs = "ext4" if distro == "ubuntu" else "xfs"
    lines = [
        "23 29 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw",
        "24 29 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw",
        "25 29 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=263412148k,nr_inodes=65853037,mode=755,inode64",
        "26 25 0:23 / /dev/pts rw,nosuid,noexec,relatime shared:3 - devpts devpts rw,gid=5,mode=620,ptmxmode=000",
        "27 29 0:24 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=52689652k,mode=755,inode64",
        "29 1 259:2 / / rw,relatime shared:1 - %s /dev/nvme0n1p2 rw%s" % (root_fs, ",errors=remount-ro" if root_fs == "ext4" else ",attr2,inode64,logbufs=8,logbsize=32k,noquota"),
        "30 23 0:6 / /sys/kernel/security rw,nosuid,nodev,noexec,relatime shared:8 - securityfs securityfs rw",
        "31 25 0:26 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw,inode64",
        "32 27 0:27 / /run/lock rw,nosuid,nodev,noexec,relatime shared:6 - tmpfs tmpfs rw,size=5120k,inode64",
        "33 23 0:28 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot",
        "34 23 0:29 / /sys/fs/pstore rw,nosuid,nodev,noexec,relatime shared:10 - pstore pstore rw",
        "35 23 0:30 / /sys/firmware/efi/efivars rw,nosuid,nodev,noexec,relatime shared:11 - efivarfs efivarfs rw",
        "36 23 0:31 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:12 - bpf bpf rw,mode=700",
        "37 24 0:32 / /proc/sys/fs/binfmt_misc rw,relatime shared:14 - autofs systemd-1 rw,fd=29,pgrp=1,timeout=0,minproto=5,maxproto=5,direct,pipe_ino=2314",
        "38 25 0:19 / /dev/mqueue rw,nosuid,nodev,noexec,relatime shared:15 - mqueue mqueue rw",
        "39 25 0:33 / /dev/hugepages rw,relatime shared:16 - hugetlbfs hugetlbfs rw,pagesize=2M",
        "40 23 0:7 / /sys/kernel/debug rw,nosuid,nodev,noexec,relatime shared:17 - debugfs debugfs rw",
        "41 23 0:12 / /sys/kernel/tracing rw,nosuid,nodev,noexec,relatime shared:18 - tracefs tracefs rw",
        "42 23 0:34 / /sys/fs/fuse/connections rw,nosuid,nodev,noexec,relatime shared:19 - fusectl fusectl rw",
        "43 23 0:20 / /sys/kernel/config rw,nosuid,nodev,noexec,relatime shared:20 - configfs configfs rw",
        "66 29 259:1 / /boot/efi rw,relatime shared:33 - vfat /dev/nvme0n1p1 rw,fmask=0077,dmask=0077,codepage=437,iocharset=iso8859-1,shortname=mixed,errors=remount-ro",
        "69 29 259:3 / /data rw,relatime shared:35 - xfs /dev/nvme0n1p3 rw,attr2,inode64,logbufs=8,logbsize=32k,noquota",
        "512 27 0:45 / /run/user/0 rw,nosuid,nodev,relatime shared:290 - tmpfs tmpfs rw,size=52689648k,nr_inodes=13172412,mode=700,inode64",
    ]
    lines.extend(extra)
    return "\n".join(lines) + "\n"
