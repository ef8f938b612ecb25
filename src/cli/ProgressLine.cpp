#include "ProgressLine.h"

#include <cmath>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Work shorter than this shows no line at all.
constexpr std::chrono::milliseconds kShowAfter {1000};
constexpr std::chrono::milliseconds kRedrawEvery {250};
// An estimate of the time left needs some of the work done first: a thousandth, 20 s of a
// 6-hour column-stats.
constexpr double kEstimateFrom = 0.001;

// The whole text at once, straight to the terminal: not through a stream another thread uses.
void writeError(const QByteArray &bytes)
{
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(STDERR_FILENO, bytes.constData() + written, std::size_t(bytes.size() - written));
        if (n <= 0)
            return;
        written += n;
    }
}

// Back to the start of the line, which is then cleared to its end.
const QByteArray kEraseToEnd = "\r\x1b[K";

} // namespace

ProgressLine::ProgressLine(QString prefix, bool enabled)
    : m_prefix(std::move(prefix))
    , m_enabled(enabled)
{
    if (m_enabled)
        m_thread = std::thread([this] { run(); });
}

ProgressLine::~ProgressLine()
{
    finish();
}

bool ProgressLine::stderrIsTerminal()
{
    return isatty(STDERR_FILENO) == 1;
}

bool ProgressLine::escapesAllowed()
{
    return qEnvironmentVariable("TERM") != u"dumb"_s && qEnvironmentVariableIsEmpty("NO_COLOR");
}

void ProgressLine::erase()
{
    if (!m_drawn)
        return;
    if (escapesAllowed())
        writeError(kEraseToEnd);
    else
        writeError("\r" + QByteArray(m_drawnLength, ' ') + "\r");
    m_drawn = false;
}

void ProgressLine::stage(const QString &what, const WorkProgress *progress)
{
    std::lock_guard lock(m_mutex);
    erase();
    m_what = what;
    m_progress = progress;
    m_since = Clock::now();
}

void ProgressLine::finish()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        m_stopped = true;
        erase();
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

QString ProgressLine::duration(std::chrono::milliseconds time)
{
    const auto seconds = static_cast<std::int64_t>(std::llround(static_cast<double>(time.count()) / 1000.0));
    if (seconds < 60)
        return u"%1 s"_s.arg(seconds);
    if (seconds < 3600)
        return u"%1 min %2 s"_s.arg(seconds / 60).arg(seconds % 60);
    return u"%1 h %2 min"_s.arg(seconds / 3600).arg(seconds / 60 % 60);
}

QString ProgressLine::text(const QString &what, double fraction, bool counted, std::chrono::milliseconds elapsed)
{
    QString line = what + u": "_s;
    // Below a tenth, a decimal more: hours of work move by a whole percent only every few minutes.
    if (counted) {
        const int decimals = fraction < 0.1 ? 1 : 0;
        const double scale = decimals == 1 ? 1000.0 : 100.0;
        line += u"%1%, "_s.arg(std::floor(fraction * scale) * 100.0 / scale, 0, 'f', decimals);
    }
    line += duration(elapsed);
    if (counted && fraction >= kEstimateFrom && fraction < 1.0) {
        const auto left = std::chrono::milliseconds(
            static_cast<std::int64_t>(static_cast<double>(elapsed.count()) * (1.0 - fraction) / fraction));
        line += u", about %1 left"_s.arg(duration(left));
    }
    return line + u" (Ctrl+C stops)"_s;
}

void ProgressLine::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopped) {
        m_wake.wait_for(lock, kRedrawEvery);
        if (m_stopped)
            break;
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_since);
        if (m_what.isEmpty() || elapsed < kShowAfter)
            continue;
        const bool counted = m_progress && m_progress->total() > 0;
        const QString line
            = m_prefix + u": "_s + text(m_what, counted ? m_progress->fraction() : 0.0, counted, elapsed);
        erase();
        writeError(line.toUtf8());
        m_drawn = true;
        m_drawnLength = line.size();
    }
}

} // namespace posenc
