#include "io/AtomicFile.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>

namespace tst_atomicfile {
using namespace Qt::StringLiterals;
using posenc::writeAtomically;
using posenc::WriteError;

namespace {

// Every entry of a directory, hidden ones included, so a leftover temporary file shows.
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool createFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

auto writer(const QByteArray &content, bool result = true)
{
    return [content, result](QIODevice &device) { return device.write(content) == content.size() && result; };
}

QString osReason(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// `content` written as one call (past Qt's buffer, straight to the system) or in 1 KiB calls
// (through Qt's buffer).
auto chunkedWriter(const QByteArray &content, qsizetype chunk)
{
    return [content, chunk](QIODevice &device) {
        for (qsizetype at = 0; at < content.size(); at += chunk) {
            const QByteArray part = content.mid(at, chunk);
            if (device.write(part) != part.size())
                return false;
        }
        return true;
    };
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void toStringNamesPathAndReason();
    void writesNewFile_data();
    void writesNewFile();
    void replacesExistingFile();
    void keepsPermissionsOfReplacedFile();
    void failedWriteKeepsExistingFile_data();
    void failedWriteKeepsExistingFile();
    void failedWriteCreatesNothing();
    void throwingWriteLeavesNothing();
    void unwritablePath_data();
    void unwritablePath();
    void readOnlyDirectory();
    void fileSizeLimitNamesTheSystemsReason_data();
    void fileSizeLimitNamesTheSystemsReason();
    void fullFilesystemSaysNoSpaceLeft_data();
    void fullFilesystemSaysNoSpaceLeft();
    void aPipeIsFedNotReplaced();
    void aPipeNobodyReadsIsRefusedAtOnce();
};

void TestAtomicFile::toStringNamesPathAndReason()
{
    const WriteError error {u"/data/pe.npy"_s, u"No space left on device"_s};
    QCOMPARE(error.toString(), u"/data/pe.npy: No space left on device"_s);
}

void TestAtomicFile::writesNewFile_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("text") << QByteArray("1,2,3\n4,5,6\n");
    QTest::newRow("binary with NUL") << QByteArray("\x93NUMPY\x01\x00\xff", 9);
    QTest::newRow("3 MiB") << QByteArray(3 << 20, 'x');
}

void TestAtomicFile::writesNewFile()
{
    QFETCH(QByteArray, content);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"out.bin"_s);

    const auto error = writeAtomically(path, writer(content));

    QVERIFY2(!error, qPrintable(error ? error->toString() : QString()));
    QCOMPARE(readAll(path), content);
    QCOMPARE(entries(dir.path()), QStringList {u"out.bin"_s});
}

void TestAtomicFile::replacesExistingFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"out.bin"_s);
    QVERIFY(createFile(path, QByteArray("an older and longer content that must disappear entirely")));

    const auto error = writeAtomically(path, writer("new"));

    QVERIFY2(!error, qPrintable(error ? error->toString() : QString()));
    QCOMPARE(readAll(path), QByteArray("new"));
    QCOMPARE(entries(dir.path()), QStringList {u"out.bin"_s});
}

void TestAtomicFile::keepsPermissionsOfReplacedFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"out.bin"_s);
    QVERIFY(createFile(path, "old"));
    const QFile::Permissions mode = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup;
    QVERIFY(QFile::setPermissions(path, mode));

    QVERIFY(!writeAtomically(path, writer("new")));

    // The *User flags describe the current user, not the file's mode bits: leave them out.
    const QFile::Permissions modeBits = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
        | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
    QCOMPARE(QFile::permissions(path) & modeBits, mode);
    QCOMPARE(readAll(path), QByteArray("new"));
}

void TestAtomicFile::failedWriteKeepsExistingFile_data()
{
    QTest::addColumn<QByteArray>("written");
    QTest::newRow("nothing written") << QByteArray();
    QTest::newRow("shorter than the old file") << QByteArray("par");
    QTest::newRow("longer than the old file") << QByteArray(1 << 20, 'y');
}

void TestAtomicFile::failedWriteKeepsExistingFile()
{
    QFETCH(QByteArray, written);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"table.csv"_s);
    const QByteArray old("0.5,0.25\n-0,1e-45\n");
    QVERIFY(createFile(path, old));

    const auto error = writeAtomically(path, writer(written, false));

    QVERIFY(error);
    QCOMPARE(error->path, path);
    QVERIFY(!error->reason.isEmpty());
    QCOMPARE(readAll(path), old);
    QCOMPARE(entries(dir.path()), QStringList {u"table.csv"_s});
}

void TestAtomicFile::failedWriteCreatesNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"table.npy"_s);

    QVERIFY(writeAtomically(path, writer("partial", false)));

    QVERIFY(!QFile::exists(path));
    QCOMPARE(entries(dir.path()), QStringList());
}

void TestAtomicFile::throwingWriteLeavesNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"table.npy"_s);
    QVERIFY(createFile(path, "old"));

    QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeAtomically(path, [](QIODevice &device) -> bool {
                                 device.write("partial");
                                 throw std::runtime_error("out of memory while computing");
                             }));

    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(entries(dir.path()), QStringList {u"table.npy"_s});
}

void TestAtomicFile::unwritablePath_data()
{
    QTest::addColumn<QString>("relativePath");
    QTest::addColumn<QString>("expectedReason");
    QTest::newRow("missing directory") << u"missing/x.npy"_s << osReason(ENOENT);
    QTest::newRow("missing nested directories") << u"a/b/c/x.npy"_s << osReason(ENOENT);
    // A regular file as parent directory fails for root too, unlike a chmod'ed directory.
    QTest::newRow("parent is a regular file") << u"afile/x.npy"_s << osReason(ENOTDIR);
    QTest::newRow("target is a directory") << u"adir"_s << u"Filename refers to a directory"_s;
}

void TestAtomicFile::unwritablePath()
{
    QFETCH(QString, relativePath);
    QFETCH(QString, expectedReason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(createFile(dir.filePath(u"afile"_s), "keep me"));
    QVERIFY(QDir(dir.path()).mkdir(u"adir"_s));
    const QStringList before = entries(dir.path());
    const QString path = dir.filePath(relativePath);

    const auto error = writeAtomically(path, writer("content"));

    QVERIFY(error);
    QCOMPARE(error->path, path);
    QCOMPARE(error->reason, expectedReason);
    QCOMPARE(error->toString(), path + u": "_s + error->reason);
    QCOMPARE(entries(dir.path()), before);
    QCOMPARE(entries(dir.filePath(u"adir"_s)), QStringList());
    QCOMPARE(readAll(dir.filePath(u"afile"_s)), QByteArray("keep me"));
}

void TestAtomicFile::readOnlyDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString locked = dir.filePath(u"locked"_s);
    QVERIFY(QDir(dir.path()).mkdir(u"locked"_s));
    QVERIFY(createFile(locked + u"/out.bin"_s, "old"));
    QVERIFY(QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner));
    const auto unlock
        = qScopeGuard([&] { QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner); });
    if (QFile probe(locked + u"/probe"_s); probe.open(QIODevice::WriteOnly)) {
        probe.remove();
        QSKIP("directory permissions are not enforced for this user (root?)");
    }

    const auto error = writeAtomically(locked + u"/out.bin"_s, writer("new"));

    QVERIFY(error);
    QCOMPARE(error->reason, osReason(EACCES));
    QCOMPARE(readAll(locked + u"/out.bin"_s), QByteArray("old"));
    QCOMPARE(entries(locked), QStringList {u"out.bin"_s});
}

void TestAtomicFile::fileSizeLimitNamesTheSystemsReason_data()
{
    QTest::addColumn<qsizetype>("chunk");
    QTest::newRow("one write of 1 MiB") << qsizetype(1 << 20);
    QTest::newRow("1 KiB writes") << qsizetype(1 << 10);
}

// A file size limit cuts a write short as a full disk does, without root or a device: the
// reason is the system's ("File too large"), not a guess.
void TestAtomicFile::fileSizeLimitNamesTheSystemsReason()
{
    QFETCH(qsizetype, chunk);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"big.npy"_s);
    QVERIFY(createFile(path, "old"));
    rlimit limit {};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &limit), 0);
    const rlimit before = limit;
    limit.rlim_cur = 64 << 10;
    // Past the limit the kernel also sends SIGXFSZ, which would end the test: ignored, the
    // write fails with EFBIG instead.
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &limit), 0);
    const auto restore = qScopeGuard([&] {
        setrlimit(RLIMIT_FSIZE, &before);
        std::signal(SIGXFSZ, oldHandler);
    });

    const auto error = writeAtomically(path, chunkedWriter(QByteArray(1 << 20, 'x'), chunk));

    QVERIFY(error);
    QCOMPARE(error->reason, osReason(EFBIG));
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(entries(dir.path()), QStringList {u"big.npy"_s});
}

void TestAtomicFile::fullFilesystemSaysNoSpaceLeft_data()
{
    fileSizeLimitNamesTheSystemsReason_data();
}

// A real full disk: a 64 KiB tmpfs, where this process may mount one (root); skipped elsewhere.
void TestAtomicFile::fullFilesystemSaysNoSpaceLeft()
{
    QFETCH(qsizetype, chunk);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray mountPoint = QFile::encodeName(dir.path());
    if (geteuid() != 0 || mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP("cannot mount a small tmpfs here (needs root)");
    const auto unmount = qScopeGuard([&] { umount(mountPoint.constData()); });
    const QString path = dir.filePath(u"table.csv"_s);
    QVERIFY(createFile(path, "old"));

    const auto error = writeAtomically(path, chunkedWriter(QByteArray(1 << 20, 'x'), chunk));

    QVERIFY(error);
    QCOMPARE(error->reason, osReason(ENOSPC));
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(entries(dir.path()), QStringList {u"table.csv"_s});
}

// A FIFO no process reads: the write says so at once, where opening it waited for a reader (the
// window hung saving its session onto one), and the pipe stays a pipe.
void TestAtomicFile::aPipeNobodyReadsIsRefusedAtOnce()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(u"pipe"_s);
    QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const auto error = writeAtomically(fifo, writer(QByteArray(10, 'p')));
    QVERIFY(error);
    QCOMPARE(error->toString(), fifo + u": a pipe no process reads; start its reader first"_s);
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());
}

// A FIFO (as a device such as /dev/null) cannot be replaced, only written to: before, a file
// was renamed over it, wherever the user could create files beside it.
void TestAtomicFile::aPipeIsFedNotReplaced()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(u"pipe"_s);
    QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    // The reading end, opened first (without waiting for a writer), drained by a thread until the
    // write is over: a pipe replaced by a file gets nothing, and the test ends all the same.
    const int reading = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
    QVERIFY(reading >= 0);
    std::atomic<bool> written {false};
    QByteArray received;
    std::thread reader([&] {
        char buffer[4096];
        for (bool last = false; !last;) {
            last = written.load();
            for (ssize_t n; (n = ::read(reading, buffer, sizeof(buffer))) > 0;)
                received.append(buffer, n);
            if (!last)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });

    const auto error = writeAtomically(fifo, writer(QByteArray(100000, 'p')));

    written.store(true);
    reader.join();
    ::close(reading);
    QVERIFY2(!error, qPrintable(error ? error->toString() : QString()));
    QCOMPARE(received, QByteArray(100000, 'p'));
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());
    QCOMPARE(entries(dir.path()), QStringList {u"pipe"_s});
}

POSENC_TEST_GUILESS_MAIN(TestAtomicFile)
} // namespace tst_atomicfile
#include "tst_atomicfile.moc"
