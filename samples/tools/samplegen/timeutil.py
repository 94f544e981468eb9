"""Time formats used by the sources. Every host in the samples runs in Asia/Shanghai
(UTC+8, no DST since 1991), so local time is UTC + 8 h."""
import datetime

OFFSET = datetime.timedelta(hours=8)
CST = datetime.timezone(OFFSET)
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def local_epoch(y, mo, d, h, mi, s, us=0):
    """Epoch seconds (float) of a Shanghai wall-clock time."""
    dt = datetime.datetime(y, mo, d, h, mi, s, us, tzinfo=CST)
    return dt.timestamp()


def _local(epoch):
    return datetime.datetime.fromtimestamp(epoch, tz=CST)


def _utc(epoch):
    return datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)


def _us(epoch):
    return int(round(epoch * 1_000_000)) % 1_000_000


def plog_ts(epoch):
    """CANN dlog timestamp: YYYY-MM-DD-HH:MM:SS.mmm.uuu (local time)."""
    dt = _local(int(round(epoch * 1e6)) / 1e6)
    us = _us(epoch)
    return dt.strftime("%Y-%m-%d-%H:%M:%S") + ".%03d.%03d" % (us // 1000, us % 1000)


def plog_file_ts(epoch):
    """YYYYMMDDhhmmssSSS as in plog-<pid>_<ts>.log."""
    dt = _local(epoch)
    return dt.strftime("%Y%m%d%H%M%S") + "%03d" % (_us(epoch) // 1000)


def local_iso(epoch):
    return _local(epoch).strftime("%Y-%m-%dT%H:%M:%S+08:00")


def utc_iso(epoch):
    return _utc(epoch).strftime("%Y-%m-%dT%H:%M:%SZ")


def syslog_ts(epoch):
    dt = _local(epoch)
    return "%s %2d %s" % (MONTHS[dt.month - 1], dt.day, dt.strftime("%H:%M:%S"))


def ls_date(epoch):
    """ls -l date of a recent file: 'Sep  1 08:13'."""
    dt = _local(epoch)
    return "%s %2d %s" % (MONTHS[dt.month - 1], dt.day, dt.strftime("%H:%M"))


def list_boots_ts(epoch):
    """journalctl --list-boots --utc: 'Tue 2026-09-01 00:12:09 UTC'."""
    dt = _utc(epoch)
    return "%s %s UTC" % (DAYS[dt.weekday()], dt.strftime("%Y-%m-%d %H:%M:%S"))


def pylog_ts(epoch):
    """Python logging asctime: '2026-09-04 09:20:35,118'."""
    dt = _local(epoch)
    return dt.strftime("%Y-%m-%d %H:%M:%S") + ",%03d" % (_us(epoch) // 1000)


def c10_warn_ts(epoch):
    """c10 warning prefix time: 'W904 09:20:41.563102334' (month without zero pad)."""
    dt = _local(epoch)
    ns = _us(epoch) * 1000 + 334
    return "W%d%02d %s.%09d" % (dt.month, dt.day, dt.strftime("%H:%M:%S"), ns)


def err_ts(epoch):
    """torch_npu ERR line time: '2026-09-04-09:45:03'."""
    return _local(epoch).strftime("%Y-%m-%d-%H:%M:%S")


def install_log_ts(epoch):
    return _local(epoch).strftime("%Y-%m-%d %H:%M:%S")


def ctime(epoch):
    """'Wed Jun  7 10:08:28 2023' style."""
    dt = _local(epoch)
    return "%s %s %2d %s %d" % (DAYS[dt.weekday()], MONTHS[dt.month - 1], dt.day,
                                dt.strftime("%H:%M:%S"), dt.year)
