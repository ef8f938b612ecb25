#include "StandardStreams.h"

#include "ExitCode.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc::StandardStreams {

void holdClosed()
{
    for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        // The lowest free descriptor is `fd`: those below it are open, or were just held.
        const int held = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
        if (held >= 0 && held != fd)
            ::close(held);
    }
}

int finishOutput(const QString &command, int code, QTextStream &out, QTextStream &err)
{
    errno = 0;
    out.flush();
    const bool written = out.status() == QTextStream::Ok && std::fflush(stdout) == 0 && !std::ferror(stdout);
    const int reason = errno;
    if (written || code == ExitUsage || code == ExitIo || code == ExitOverBudget || code == ExitInterrupted)
        return code;
    err << command << ": standard output: "
        << (reason != 0 ? QString::fromLocal8Bit(std::strerror(reason)) : u"the output could not be written"_s) << '\n';
    return ExitIo;
}

} // namespace posenc::StandardStreams
