#include "io/MappedFile.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What the SIGBUS handler knows of a live mapping: its pages, and whether one of them was gone.
// Read in a signal handler: lock-free atomics only.
struct Guard
{
    std::atomic<bool> taken {false};
    std::atomic<std::uintptr_t> begin {0}; // 0: no mapping
    std::atomic<std::uintptr_t> end {0};
    std::atomic<bool> cut {false};
};
static_assert(std::atomic<std::uintptr_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

// Mappings live at once at most; a file opened past them is read with pread.
constexpr int kGuards = 256;
Guard g_guards[kGuards];
struct sigaction g_previous
{
};
std::uintptr_t g_pageSize = 4096;
std::mutex g_installing;

// A page of a mapped file past the file's end (it was cut short after it was mapped): zeros mapped
// in its place, so that the read goes on, and the mapping marked cut for held() to report. Any
// other bus error goes where it went before this handler.
void onBusError(int signal, siginfo_t *info, void *context)
{
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (Guard &guard : g_guards) {
        const std::uintptr_t begin = guard.begin.load(std::memory_order_acquire);
        if (info->si_code != BUS_ADRERR || begin == 0 || address < begin
            || address >= guard.end.load(std::memory_order_acquire))
            continue;
        const int saved = errno;
        void *page = reinterpret_cast<void *>(address & ~(g_pageSize - 1));
        const bool zeros
            = ::mmap(page, g_pageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED;
        errno = saved;
        if (zeros) {
            guard.cut.store(true, std::memory_order_release);
            return;
        }
    }
    if (g_previous.sa_flags & SA_SIGINFO) {
        g_previous.sa_sigaction(signal, info, context);
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
    } else {
        // The access faults again, now with the default action: the process ends, as without us.
        struct sigaction fallback
        {
        };
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        ::sigaction(SIGBUS, &fallback, nullptr);
    }
}

// The handler installed, chaining the one it replaces; again if another replaced it since.
bool guardBusErrors()
{
    const std::lock_guard lock(g_installing);
    struct sigaction current
    {
    };
    if (::sigaction(SIGBUS, nullptr, &current) != 0)
        return false;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == onBusError)
        return true;
    g_pageSize = std::uintptr_t(::sysconf(_SC_PAGESIZE));
    struct sigaction action
    {
    };
    action.sa_sigaction = onBusError;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    g_previous = current;
    return ::sigaction(SIGBUS, &action, nullptr) == 0;
}

} // namespace

std::unique_ptr<MappedFile> MappedFile::map(int fd, std::int64_t size)
{
    struct stat info
    {
    };
    if (size <= 0 || ::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size < size || !guardBusErrors())
        return nullptr;
    int guard = -1;
    for (int i = 0; i < kGuards && guard < 0; ++i) {
        bool free = false;
        if (g_guards[i].taken.compare_exchange_strong(free, true))
            guard = i;
    }
    if (guard < 0)
        return nullptr;
    void *data = ::mmap(nullptr, std::size_t(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
        g_guards[guard].taken.store(false);
        return nullptr;
    }
    // Read front to back by each thread's blocks: read ahead, and the pages behind may go.
    ::madvise(data, std::size_t(size), MADV_SEQUENTIAL);
    Guard &g = g_guards[guard];
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    g.cut.store(false);
    g.end.store(begin + (std::uintptr_t(size) + g_pageSize - 1) / g_pageSize * g_pageSize, std::memory_order_release);
    g.begin.store(begin, std::memory_order_release);
    return std::unique_ptr<MappedFile>(new MappedFile(fd, static_cast<char *>(data), size, guard));
}

MappedFile::MappedFile(int fd, char *data, std::int64_t size, int guard)
    : m_fd(fd)
    , m_data(data)
    , m_size(size)
    , m_guard(guard)
{ }

MappedFile::~MappedFile()
{
    Guard &g = g_guards[m_guard];
    g.begin.store(0, std::memory_order_release);
    g.end.store(0, std::memory_order_release);
    ::munmap(m_data, std::size_t(m_size));
    g.taken.store(false);
}

const char *MappedFile::bytes(std::int64_t offset, std::int64_t length) const
{
    if (offset < 0 || length < 0 || offset > m_size || length > m_size - offset
        || g_guards[m_guard].cut.load(std::memory_order_acquire))
        return nullptr;
    // The page tables filled at once rather than a fault a page; a page past the file's end
    // (cut short) fails here, and the caller reads, which reports it.
    const std::int64_t first = offset / std::int64_t(g_pageSize) * std::int64_t(g_pageSize);
    if (length > 0 && ::madvise(m_data + first, std::size_t(offset + length - first), MADV_POPULATE_READ) != 0
        && errno != EINVAL)
        return nullptr;
    return m_data + offset;
}

bool MappedFile::held(std::int64_t offset, std::int64_t length, QString &error) const
{
    struct stat info
    {
    };
    if (::fstat(m_fd, &info) != 0) {
        error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    if (info.st_size < offset + length) {
        error = u"the file ended at byte %1 while it was being read"_s.arg(qint64(info.st_size));
        return false;
    }
    if (g_guards[m_guard].cut.load(std::memory_order_acquire)) {
        // Another thread's rows lay past the end: these are in the file, but the file is shorter
        // than it was, and where it now ends is what the user needs.
        error = info.st_size < m_size
            ? u"the file ended at byte %1 while it was being read"_s.arg(qint64(info.st_size))
            : u"the file was cut short while it was being read"_s;
        return false;
    }
    return true;
}

} // namespace posenc
