#pragma once

// The growth of a process's peak resident memory while some work runs, for tests that bound
// what reading a file may cost.
#include "support/Sanitizer.h"

#include <QByteArray>
#include <QFile>

#include <functional>

namespace PeakMemory {

// The peak measures our allocations only without AddressSanitizer, whose shadow memory,
// redzones and quarantine (freed blocks held back) multiply them: ~76x measured for the
// safetensors DOM's many small allocations, 139 MiB for the similarity figure's 1 MiB of chunks.
#if defined(POSENC_TEST_ASAN)
inline constexpr bool kPeakIsOurs = false;
#else
inline constexpr bool kPeakIsOurs = true;
#endif

inline qint64 statusKiB(const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// In bytes. The kernel's peak is reset first where it allows (clear_refs 5); where it does not,
// an earlier higher peak can only make the growth look larger, never smaller.
inline qint64 growth(const std::function<void()> &work)
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
    clear.close();
    const qint64 before = statusKiB("VmRSS");
    work();
    return (statusKiB("VmHWM") - before) * 1024;
}

} // namespace PeakMemory
