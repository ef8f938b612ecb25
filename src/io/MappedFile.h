#pragma once

#include <QString>

#include <cstdint>
#include <memory>

namespace posenc {

// A file's bytes mapped read-only where the page cache holds them (docs/ARCHITECTURE.md, Checking a
// table, "Reading"), for a check to compare its rows without copying them. A file cut short while
// it is mapped would raise SIGBUS on its pages past the new end: a process-wide handler puts zeros
// in their place instead, and held() then reports the cut as a short read reports it.
class MappedFile
{
public:
    // The first `size` bytes of `fd`, an open regular file; nullptr where they cannot be mapped (a
    // file system without mmap, no address space left, an empty file): the caller reads instead.
    static std::unique_ptr<MappedFile> map(int fd, std::int64_t size);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    std::int64_t size() const { return m_size; }
    // Bytes [offset, offset + length) where they lie, their pages mapped ahead of the reads;
    // nullptr outside the mapping or where the file no longer holds them (it was cut short).
    const char *bytes(std::int64_t offset, std::int64_t length) const;
    // Once bytes [offset, offset + length) were read: false, with `error` set, when the file was
    // cut short meanwhile (a page of the mapping was gone, or the file ends before them now), so
    // that what was read is not the file's.
    bool held(std::int64_t offset, std::int64_t length, QString &error) const;

private:
    MappedFile(int fd, char *data, std::int64_t size, int guard);

    int m_fd;
    char *m_data;
    std::int64_t m_size;
    int m_guard; // the handler's record of this mapping
};

} // namespace posenc
