"""A PEP 517 build backend for python/ with the standard library only, so
that `pip install ./python` needs no network: the wheel holds the coalsim
package and, when the source tree's build/ has them (or `make` can make
them), libcoalsim.so, the coalsim command and coalsim run's libcuda.so.1
beside it (the package looks there first)."""
import base64
import hashlib
import os
import re
import subprocess
import sysconfig
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))      # python/
ROOT = os.path.dirname(HERE)                                              # the source tree
NAME = "coalsim"


def _version():
    with open(os.path.join(HERE, "pyproject.toml")) as f:
        return re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)


def _native():
    """(path in the wheel, file) of the built library, command and driver, or
    [] where they cannot be had."""
    build = os.path.join(ROOT, "build")
    files = [("coalsim/libcoalsim.so", os.path.join(build, "libcoalsim.so")),
             ("coalsim/bin/coalsim", os.path.join(build, "coalsim")),
             ("coalsim/bin/driver/libcuda.so.1", os.path.join(build, "driver", "libcuda.so.1"))]
    if not all(os.path.exists(f) for _, f in files) and os.path.exists(os.path.join(ROOT, "Makefile")):
        subprocess.run(["make", "-C", ROOT, "build/libcoalsim.so", "build/coalsim", "build/driver/libcuda.so.1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [(a, os.path.realpath(f)) for a, f in files] if all(os.path.exists(f) for _, f in files) else []


def _record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arc, digest, len(data))


def _metadata():
    return "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: GPU memory coalescing and bank conflicts\n" % (
        NAME, _version())


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    native = _native()
    tag = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_") if native else "py3-none-any"
    name = "%s-%s-%s.whl" % (NAME, version, tag)
    dist = "%s-%s.dist-info" % (NAME, version)
    files = [("coalsim/__init__.py", os.path.join(HERE, "coalsim", "__init__.py"))] + native
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, src in files:
            with open(src, "rb") as f:
                data = f.read()
            info = zipfile.ZipInfo(arc)
            info.external_attr = (0o100755 if arc.startswith("coalsim/bin/") or arc.endswith(".so") else 0o100644) << 16
            info.create_system = 3     # Unix: pip keeps the mode
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            record.append(_record_line(arc, data))
        meta = {
            dist + "/METADATA": _metadata().encode(),
            dist + "/WHEEL": ("Wheel-Version: 1.0\nGenerator: coalsim-backend\nRoot-Is-Purelib: %s\nTag: %s\n" % (
                "false" if native else "true", tag)).encode(),
        }
        for arc, data in meta.items():
            z.writestr(arc, data)
            record.append(_record_line(arc, data))
        record.append(dist + "/RECORD,,")
        z.writestr(dist + "/RECORD", "\n".join(record) + "\n")
    return name


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, _version())
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in ("pyproject.toml", "_build/backend.py", "coalsim/__init__.py", "README.md"):
            t.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        pkg = _metadata().encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(pkg)
        import io
        t.addfile(info, io.BytesIO(pkg))
    return name
