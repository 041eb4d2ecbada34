#!/usr/bin/env python3
"""Makes the fallback font subsets of this folder (see LICENSE-fallback) from Debian's fonts-noto-cjk
and fonts-unifont: `apt-get install fonts-noto-cjk fonts-unifont; pip install fonttools`, then run this
script in this folder."""
import subprocess

NOTO = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
NOTO_BOLD = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
UNIFONT = "/usr/share/fonts/opentype/unifont/unifont.otf"
UPPER = "/usr/share/fonts/opentype/unifont/unifont_upper.otf"


def decoded(codec, rows, cells):
    out = set()
    for hi in rows:
        for lo in cells:
            try:
                out.add(bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:
                pass
    return out


def ranges(*pairs):
    return {chr(c) for a, b in pairs for c in range(a, b + 1)}


cjk = set()
cjk |= decoded("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))  # GB2312 level 1
cjk |= decoded("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)))
cjk |= decoded("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))  # JIS X 0208 level 1
cjk |= decoded("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))  # KS X 1001 Hangul
cjk |= ranges((0x3000, 0x30FF), (0x31F0, 0x31FF), (0xFF00, 0xFFEF), (0x3130, 0x318F), (0x1100, 0x11FF))
cjk = {c for c in cjk if len(c) == 1}

skip = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xE000, 0xF8FF),
        (0xD800, 0xDFFF), (0xA000, 0xA4CF)]
bmp = {chr(c) for c in range(0x20, 0x10000) if not any(a <= c <= b for a, b in skip)}
upper = ranges((0x1F000, 0x1F02F), (0x1F0A0, 0x1F0FF), (0x1F1E6, 0x1F1FF), (0x1F300, 0x1F6FF),
               (0x1F900, 0x1F9FF), (0x1FA70, 0x1FAFF))


def subset(source, chars, output, *extra):
    with open(output + ".txt", "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write("".join(sorted(chars)))
    subprocess.run(["pyftsubset", source, *extra, f"--text-file={output}.txt", f"--output-file={output}",
                    "--no-hinting", "--layout-features=", "--name-IDs=*"], check=True)


subset(NOTO, cjk, "NotoSansCJKsc-Regular-subset.otf", "--font-number=2")
subset(NOTO_BOLD, cjk, "NotoSansCJKsc-Bold-subset.otf", "--font-number=2")
subset(UNIFONT, bmp, "Unifont-subset.otf")
subset(UPPER, upper, "UnifontUpper-subset.otf")
