#pragma once

#include "core/WorkProgress.h"

#include <QString>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace posenc {

// The line on standard error that says what a command is doing while it takes long
// (docs/ARCHITECTURE.md, Command line): from a second on, redrawn a few times a second, the
// stage ("column-stats", "writing t.csv"), how far it is when its work counts its rows, the
// time taken and the time left. Only where standard error is a terminal and --quiet was not
// given: a script's log gets no such lines. Erased when the stage or the line ends, so that
// the command's own messages start on a clean line: by an escape sequence, or where the terminal
// takes none (TERM=dumb, NO_COLOR) by overwriting it with spaces.
class ProgressLine
{
public:
    // `prefix` begins the line ("posenc table"); `enabled` false shows nothing.
    ProgressLine(QString prefix, bool enabled);
    ~ProgressLine();
    ProgressLine(const ProgressLine &) = delete;
    ProgressLine &operator=(const ProgressLine &) = delete;

    // Whether standard error is a terminal, where a progress line may be drawn.
    static bool stderrIsTerminal();
    // Whether the terminal may be sent escape sequences: not where TERM is dumb (Emacs' shell
    // buffers, some CI logs), nor where NO_COLOR is set to anything (no-color.org asks for text
    // without escapes).
    static bool escapesAllowed();

    // A new stage, timed from now; `progress` (may be null: then only the time shows) must
    // live until the next stage or the end.
    void stage(const QString &what, const WorkProgress *progress = nullptr);
    // Erases the line and shows nothing more.
    void finish();

    // The text of the line: "column-stats: 37%, 1 min 12 s, about 2 min left (Ctrl+C stops)".
    static QString text(const QString &what, double fraction, bool counted, std::chrono::milliseconds elapsed);
    static QString duration(std::chrono::milliseconds time);

private:
    void run();
    void erase();

    using Clock = std::chrono::steady_clock;
    const QString m_prefix;
    const bool m_enabled;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopped = false;
    bool m_drawn = false;
    qsizetype m_drawnLength = 0; // characters of the line drawn, for an erase without escapes
    QString m_what;
    const WorkProgress *m_progress = nullptr;
    Clock::time_point m_since = Clock::now();
    std::thread m_thread;
};

} // namespace posenc
