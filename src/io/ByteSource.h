#pragma once

#include <QByteArrayView>
#include <QFile>
#include <QFileInfo>
#include <QString>

#include <atomic>

namespace posenc {

// Bytes of a file or of a buffer, read only within their bounds. Readers parse through this
// interface, so the fuzz targets and the file readers run the same code.
class ByteSource
{
public:
    virtual ~ByteSource() = default;

    // The path (or a label) that error messages name.
    virtual QString name() const = 0;
    virtual qint64 size() const = 0;
    // Copies [offset, offset + length) into `destination`; false (with errorString() set)
    // when the range is not inside the source or the read fails. Never reads past the end.
    bool read(qint64 offset, qint64 length, char *destination);
    QString errorString() const { return m_error; }
    // Reads fail as "cancelled" once `cancel` is set: a long read stops within one chunk.
    void setCancel(const std::atomic<bool> *cancel) { m_cancel = cancel; }

protected:
    virtual bool readInside(qint64 offset, qint64 length, char *destination) = 0;
    void setErrorString(const QString &error) { m_error = error; }

private:
    QString m_error;
    const std::atomic<bool> *m_cancel = nullptr;
};

// A caller-owned buffer, which must outlive the source.
class MemoryByteSource : public ByteSource
{
public:
    MemoryByteSource(QByteArrayView bytes, const QString &name);
    QString name() const override { return m_name; }
    qint64 size() const override { return m_bytes.size(); }

protected:
    bool readInside(qint64 offset, qint64 length, char *destination) override;

private:
    QByteArrayView m_bytes;
    QString m_name;
};

// "" when `path` can name a file, else why not: a name holding U+0000 reaches no file, and Qt's
// QFile and QFileInfo refuse it with a warning. Asked wherever a file's text (settings, a
// session) names a file, before the name reaches QFileInfo.
QString fileNameProblem(const QString &path);

// Why `path`, which QFileInfo says does not exist, cannot be found: "no such file", "a loop of
// symbolic links (a.npy -> b.npy -> a.npy)", "a symbolic link to 'gone.npy', which does not
// exist", or the system's reason (a directory on the way that cannot be searched).
QString absentFileReason(const QString &path);

// Why what `info` names, which exists, is not a regular file: "a directory, not a regular file", or
// "not a regular file (a pipe, a socket or a device)".
QString notRegularFileReason(const QFileInfo &info);

// A file read with positioned reads: nothing of it is held in memory but what is asked for.
// Opens `file` (its name set) unbuffered for reading when it names a regular file: "" on success,
// else why not (absentFileReason, "not a regular file", or the system's reason). A file named "-" is
// standard input (StandardInput): `file` then has the name of the file that holds its bytes.
QString openRegularFile(QFile &file);

class FileByteSource final : public ByteSource
{
public:
    explicit FileByteSource(const QString &path);
    // False, with errorString() set, when the file cannot be opened as a regular file.
    bool open();
    QString name() const override { return m_name; }
    qint64 size() const override { return m_size; }

protected:
    bool readInside(qint64 offset, qint64 length, char *destination) override;

private:
    QFile m_file;
    QString m_name; // as given: "-" for standard input
    qint64 m_size = 0;
};

} // namespace posenc
