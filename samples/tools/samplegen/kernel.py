"""One boot's kernel messages, rendered as journalctl JSON, raw dmesg and syslog lines.

A message is (seconds since boot, syslog priority, text, optional kernel device). The
journal's receive time lags the kernel's stamp: messages printed before journald starts
(JOURNALD_START s) are read from the backlog when it starts, later ones within a
millisecond. `clock_skew_s` shifts every wall-clock stamp the boot produced (journal,
syslog) relative to the boot's true start; it models a real-time clock that was wrong
until NTP stepped it after the messages were written.
"""
from . import timeutil
from .bundle import hexid, json_value

JOURNALD_START = 3.184


class Boot:
    def __init__(self, label, boot_id, start_epoch, hostname, machine_id, clock_skew_s=0.0):
        self.label = label
        self.boot_id = boot_id            # with dashes
        self.start = start_epoch          # true instant of boot (float epoch seconds)
        self.hostname = hostname
        self.machine_id = machine_id
        self.skew = clock_skew_s
        self.messages = []                # (t, prio, text, device)
        self.seq_base = 0

    @property
    def boot_id_hex(self):
        return self.boot_id.replace("-", "")

    @property
    def btime(self):
        return int(self.start)

    def add(self, t, prio, text, device=None):
        self.messages.append((round(t, 6), prio, text, device))

    def extend(self, msgs):
        for m in msgs:
            self.add(*m)

    def sorted(self):
        return sorted(self.messages, key=lambda m: m[0])

    def receives(self):
        """Seconds since boot at which journald stored each message (sorted order); never
        decreasing, since the journal is written in the order it reads /dev/kmsg."""
        out = []
        prev = 0.0
        for i, m in enumerate(self.sorted()):
            t = m[0]
            if t < JOURNALD_START:
                rx = JOURNALD_START + 0.000021 * i
            else:
                rx = t + 0.000040 + (int(hexid("rx%s%d" % (self.label, i), 4), 16) % 900) / 1e6
            rx = max(rx, prev + 0.000001)
            out.append(rx)
            prev = rx
        return out

    def wall(self, t):
        """Wall-clock epoch the boot's own clock gave to kernel time t."""
        return self.start + t + self.skew

    def count_until(self, until_wall):
        """Messages whose journal stamp is not after `until_wall` (they come first in order)."""
        if until_wall is None:
            return len(self.messages)
        n = 0
        for i, rx in enumerate(self.receives()):
            if self.start + rx + self.skew <= until_wall:
                n = i + 1
        return n

    def journal_lines(self, until_wall=None):
        out = []
        msgs = self.sorted()
        rxs = self.receives()
        n = self.count_until(until_wall)
        seqid = hexid("seqnum" + self.machine_id, 32)
        for i in range(n):
            t, prio, text, dev = msgs[i]
            rx = rxs[i]
            mono = int(rx * 1e6)
            real = int((self.start + rx + self.skew) * 1e6)
            seq = self.seq_base + i + 1
            cursor = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                seqid, seq, self.boot_id_hex, mono, real, hexid("x%s%d" % (self.label, i), 16))
            entry = {
                "__CURSOR": cursor,
                "__REALTIME_TIMESTAMP": str(real),
                "__MONOTONIC_TIMESTAMP": str(mono),
                "_BOOT_ID": self.boot_id_hex,
                "_SOURCE_MONOTONIC_TIMESTAMP": str(int(round(t * 1e6))),
                "_TRANSPORT": "kernel",
                "PRIORITY": str(prio),
                "SYSLOG_FACILITY": "0",
                "SYSLOG_IDENTIFIER": "kernel",
                "MESSAGE": text,
                "_MACHINE_ID": self.machine_id,
                "_HOSTNAME": self.hostname,
            }
            if dev:
                subsystem, name = dev
                entry["_KERNEL_DEVICE"] = "+%s:%s" % (subsystem, name)
                entry["_KERNEL_SUBSYSTEM"] = subsystem
                entry["_UDEV_SYSNAME"] = name
            out.append(json_value(entry))
        return out

    def journal(self, until_wall=None):
        return "".join(line + "\n" for line in self.journal_lines(until_wall))

    def dmesg(self, until_wall=None):
        lines = []
        n = self.count_until(until_wall)
        for t, prio, text, dev in self.sorted()[:n]:
            lines.append("[%5d.%06d] %s" % (int(t), int(round(t * 1e6)) % 1000000, text))
        return "\n".join(lines) + "\n"

    def syslog(self, since_wall=None, until_wall=None):
        """rsyslog's traditional format as Ubuntu writes kern.log (rsyslog starts at ~6 s)."""
        lines = []
        for (t, prio, text, dev), rx in zip(self.sorted(), self.receives()):
            wall = self.start + max(rx, 5.9) + self.skew
            if since_wall is not None and wall < since_wall:
                continue
            if until_wall is not None and wall > until_wall:
                continue
            lines.append("%s %s kernel: [%5d.%06d] %s" % (
                timeutil.syslog_ts(wall), self.hostname, int(t), int(round(t * 1e6)) % 1000000, text))
        return lines

    def first_wall(self):
        return self.start + self.receives()[0] + self.skew

    def last_wall(self, until_wall=None):
        n = self.count_until(until_wall)
        return self.start + self.receives()[n - 1] + self.skew


def list_boots(boots, until_wall=None):
    """journalctl --list-boots --utc as systemd 249 prints it (em dash between times)."""
    lines = []
    n = len(boots)
    for idx, b in enumerate(boots):
        rel = idx - (n - 1)
        last = b.last_wall(until_wall if idx == n - 1 else None)
        lines.append("%3d %s %s\u2014%s" % (rel, b.boot_id_hex, timeutil.list_boots_ts(b.first_wall()),
                                           timeutil.list_boots_ts(last)))
    return "\n".join(lines) + "\n"


def boot_template(kver, uname_version, cmdline, cpu_count, mem_gb, npus, nic_names, distro):
    """Typical early boot of a Kunpeng 920 (aarch64) server; timing in seconds since boot.
    `npus` are PCI addresses of the 910B functions."""
    m = []
    add = lambda t, p, s, d=None: m.append((t, p, s, d))
    add(0.0, 5, "Booting Linux on physical CPU 0x0000080000 [0x481fd010]")
    add(0.0, 5, "Linux version %s (buildd@bos02-arm64-%03d) (gcc (%s) 11.4.0, GNU ld (GNU Binutils for %s) 2.38) %s"
        % (kver, 71 if distro == "ubuntu" else 12,
           "Ubuntu 11.4.0-1ubuntu1~22.04" if distro == "ubuntu" else "GCC",
           "Ubuntu" if distro == "ubuntu" else "openEuler", uname_version))
    add(0.0, 6, "efi: EFI v2.70 by EDK II")
    add(0.0, 6, "efi: ACPI 2.0=0x2f1fe0000 SMBIOS 3.0=0x2f1fc0000 MEMATTR=0x2e8ba3018 MEMRESERVE=0x2e7f1d098 ")
    add(0.0, 6, "secureboot: Secure boot disabled")
    add(0.0, 6, "ACPI: Early table checksum verification disabled")
    add(0.0, 6, "ACPI: RSDP 0x00000002F1FE0000 000024 (v02 HISI  )")
    add(0.0, 6, "ACPI: XSDT 0x00000002F1FD0000 0000A4 (v01 HISI   HIP08    00000000      01000013)")
    add(0.0, 6, "ACPI: MCFG 0x00000002F1C90000 00003C (v01 HISI   HIP08    00000000 INTL 20151124)")
    add(0.0, 6, "ACPI: IORT 0x00000002F1C80000 001310 (v00 HISI   HIP08    00000000 INTL 20181213)")
    add(0.0, 6, "ACPI: SRAT 0x00000002F1AB0000 0007D0 (v03 HISI   HIP08    00000000 INTL 20181213)")
    add(0.0, 6, "ACPI: SPCR: console: pl011,mmio32,0x94080000,115200")
    add(0.0, 6, "NUMA: NODE_DATA [mem 0x2ffffe5c0-0x2ffffffff]")
    for node in range(4):
        add(0.0, 6, "ACPI: NUMA: SRAT: PXM %d -> MPIDR 0x%x -> Node %d" % (node, 0x80000 + node * 0x10000, node))
    add(0.0, 6, "Zone ranges:")
    add(0.0, 6, "  DMA      [mem 0x0000000000000000-0x00000000ffffffff]")
    add(0.0, 6, "  Normal   [mem 0x0000000100000000-0x000020ffffffffff]")
    add(0.0, 6, "psci: probing for conduit method from ACPI.")
    add(0.0, 6, "psci: PSCIv1.1 detected in firmware.")
    add(0.0, 6, "percpu: Embedded 31 pages/cpu s87064 r8192 d31720 u126976")
    add(0.0, 6, "Detected PIPT I-cache on CPU0")
    add(0.0, 6, "CPU features: detected: Kernel page table isolation (KPTI)")
    add(0.0, 6, "Built 4 zonelists, mobility grouping on.  Total pages: %d" % (mem_gb * 262144 - 1843211))
    add(0.0, 5, "Kernel command line: %s" % cmdline)
    add(0.0, 6, "Memory: %dK/%dK available (17408K kernel code, 4942K rwdata, 12288K rodata, 9856K init, 1021K bss, %dK reserved, 0K cma-reserved)"
        % (mem_gb * 1048576 - 9716420, mem_gb * 1048576, 9716420))
    add(0.0, 6, "rcu: Hierarchical RCU implementation.")
    add(0.0, 6, "rcu: \tRCU restricting CPUs from NR_CPUS=256 to nr_cpu_ids=%d." % cpu_count)
    add(0.0, 6, "GICv3: GIC: Using split EOI/Deactivate mode")
    add(0.0, 6, "GICv3: 672 SPIs implemented")
    add(0.0, 6, "ITS [mem 0x202100000-0x20211ffff]")
    add(0.0, 6, "arch_timer: cp15 timer(s) running at 100.00MHz (phys).")
    add(0.000002, 6, "sched_clock: 57 bits at 100MHz, resolution 10ns, wraps every 4398046511100ns")
    add(0.000393, 6, "Console: colour dummy device 80x25")
    add(0.000589, 6, "Calibrating delay loop (skipped), value calculated using timer frequency.. 200.00 BogoMIPS (lpj=400000)")
    add(0.000598, 6, "pid_max: default: %d minimum: %d" % (cpu_count * 1024, cpu_count * 8))
    add(0.012304, 6, "smp: Bringing up secondary CPUs ...")
    add(0.913512, 6, "smp: Brought up 4 nodes, %d CPUs" % cpu_count)
    add(0.913577, 6, "SMP: Total of %d processors activated." % cpu_count)
    add(0.913583, 6, "CPU features: detected: 32-bit EL0 Support")
    add(0.913591, 6, "CPU features: detected: Common not Private translations")
    add(0.931405, 6, "devtmpfs: initialized")
    add(0.962218, 6, "NET: Registered PF_NETLINK/PF_ROUTE protocol family")
    add(1.018771, 6, "ACPI: Interpreter enabled")
    add(1.018779, 6, "ACPI: Using GIC for interrupt routing")
    add(1.021140, 6, "ACPI: MCFG table detected, 1 entries")
    bus_roots = ["0000:00", "0000:40", "0000:80", "0000:c0"]
    for i, root in enumerate(bus_roots):
        t = 1.05 + i * 0.041
        add(t, 6, "ACPI: PCI Root Bridge [PCI%d] (domain 0000 [bus %s-%02x])" % (i, root[5:], int(root[5:], 16) + 0x3f))
        add(t + 0.0003, 6, "acpi PNP0A08:%02x: _OSC: OS supports [ExtendedConfig ASPM ClockPM Segments MSI EDR HPX-Type3]" % i)
        add(t + 0.0011, 6, "PCI host bridge to bus %s" % root)
    for i, addr in enumerate(npus):
        t = 1.2 + i * 0.0021
        add(t, 6, "pci %s: [19e5:d802] type 00 class 0x120000" % addr, ("pci", addr))
        add(t + 0.00011, 6, "pci %s: reg 0x10: [mem 0x%x-0x%x 64bit pref]" % (addr, 0x80000000000 + i * 0x1000000000, 0x80000000000 + i * 0x1000000000 + 0x7ffffff), ("pci", addr))
        add(t + 0.00018, 6, "pci %s: reg 0x18: [mem 0x%x-0x%x 64bit pref]" % (addr, 0x80008000000 + i * 0x1000000000, 0x80008000000 + i * 0x1000000000 + 0x7fffff), ("pci", addr))
        add(t + 0.00041, 6, "pci %s: PME# supported from D0 D3hot" % addr, ("pci", addr))
    add(1.46, 6, "iommu: Default domain type: Passthrough (set via kernel command line)")
    add(1.47, 6, "pci_bus 0000:00: resource 4 [mem 0xd0000000-0xd3ffffff pref]")
    add(1.73, 6, "clocksource: Switched to clocksource arch_sys_counter")
    add(1.81, 6, "NET: Registered PF_INET protocol family")
    add(1.94, 6, "Trying to unpack rootfs image as initramfs...")
    add(2.61, 6, "Freeing initrd memory: 71232K")
    add(2.70, 6, "hw perfevents: enabled with armv8_pmuv3_0 PMU driver, 13 counters available")
    add(2.88, 6, "Key type asymmetric registered")
    add(2.91, 6, "Serial: 8250/16550 driver, 32 ports, IRQ sharing enabled")
    add(2.92, 6, "ARMH0011:00: ttyAMA0 at MMIO 0x94080000 (irq = 22, base_baud = 0) is a SBSA")
    add(2.99, 6, "printk: console [ttyAMA0] enabled")
    add(3.05, 6, "Freeing unused kernel memory: 9856K")
    add(3.06, 6, "Run /init as init process")
    add(3.41, 6, "hisi_sas_v3_hw 0000:74:02.0: enabling device (0000 -> 0002)")
    add(3.52, 6, "scsi host0: hisi_sas_v3_hw")
    add(3.88, 6, "nvme nvme0: pci function 0000:83:00.0")
    add(4.02, 6, "nvme nvme0: 64/0/0 default/read/poll queues")
    add(4.03, 6, " nvme0n1: p1 p2 p3")
    for i, nic in enumerate(nic_names):
        add(4.31 + i * 0.012, 6, "hns3 0000:7d:00.%d: hclge driver initialization finished." % i)
        add(4.36 + i * 0.012, 6, "hns3 0000:7d:00.%d %s: renamed from eth%d" % (i, nic, i))
    fs = "ext4" if distro == "ubuntu" else "xfs"
    if fs == "ext4":
        add(5.12, 6, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.")
    else:
        add(5.12, 5, "XFS (nvme0n1p2): Mounting V5 Filesystem")
        add(5.19, 5, "XFS (nvme0n1p2): Ending clean mount")
    add(6.35, 6, "ipmi_si IPI0001:00: IPMI kcs interface initialized")
    add(6.44, 6, "hibmc-drm 0000:05:00.0: [drm] fb0: hibmcdrmfb frame buffer device")
    return m
