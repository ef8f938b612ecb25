#pragma once

// Runs the real `posenc` executable as scripts meet it, with the flags a user would type, and reads
// back the .npy tables it writes with a reader of its own (format 1.0, '<f4', C order, 2-D: what
// the contract promises).
#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <cstring>
#include <functional>
#include <vector>

namespace CliRun {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

// A run with standard output as the bytes written: a table or a figure sent to `-o -`.
struct BinaryRun
{
    int exitCode = -1;
    QByteArray out;
    QString err;
};

inline BinaryRun posencBytes(const QStringList &arguments,
                             const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(POSENC_EXECUTABLE), arguments);
    if (!process.waitForFinished(300000))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            QString::fromUtf8(process.readAllStandardError())};
}

inline Run posenc(const QStringList &arguments,
                  const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    const BinaryRun run = posencBytes(arguments, environment);
    return {run.exitCode, QString::fromUtf8(run.out), run.err};
}

// The window's environment: offscreen, its settings under `config` (a directory of the test's).
inline QProcessEnvironment windowEnvironment(const QString &config)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    return environment;
}

// The settings file the window wrote under `config` when it closed, or nothing.
inline QByteArray rememberedSettings(const QString &config)
{
    QDirIterator files(config, {QStringLiteral("*.conf")}, QDir::Files, QDirIterator::Subdirectories);
    if (!files.hasNext())
        return {};
    QFile conf(files.next());
    return conf.open(QIODevice::ReadOnly) ? conf.readAll() : QByteArray();
}

// The "params" of a file (a session's, a lesson's or a preset's) as the flags a user would type.
inline QStringList parameterFlags(const QJsonObject &file)
{
    QStringList flags;
    const QJsonObject params = file.value(QStringLiteral("params")).toObject();
    for (auto it = params.begin(); it != params.end(); ++it) {
        // A switch is a flag alone: given for true, left out for false.
        static const QStringList switches
            = {QStringLiteral("eval"), QStringLiteral("t5-causal"), QStringLiteral("mrope-interleaved"),
               QStringLiteral("cls-token"), QStringLiteral("flip-sin-to-cos")};
        if (switches.contains(it.key())) {
            if (it.value().toString() == QStringLiteral("true"))
                flags << QStringLiteral("--") + it.key();
            continue;
        }
        flags << QStringLiteral("--") + it.key() << it.value().toString();
    }
    return flags;
}

struct Table
{
    qint64 rows = -1;
    qint64 cols = -1;
    std::vector<float> values;
    float at(qint64 r, qint64 c) const { return values[static_cast<std::size_t>(r * cols + c)]; }
};

inline Table readNpy(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    if (!bytes.startsWith("\x93NUMPY\x01\x00"))
        return {};
    const int headerLength = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    const QByteArray header = bytes.mid(10, headerLength);
    if (!header.contains("'descr': '<f4'") || !header.contains("'fortran_order': False"))
        return {};
    const qsizetype open = header.indexOf("'shape': (") + 10;
    const QList<QByteArray> dims = header.mid(open, header.indexOf(')', open) - open).split(',');
    Table t;
    t.rows = dims.value(0).trimmed().toLongLong();
    t.cols = dims.value(1).trimmed().toLongLong();
    const qsizetype dataStart = 10 + headerLength;
    if (bytes.size() - dataStart != t.rows * t.cols * 4)
        return {};
    t.values.resize(static_cast<std::size_t>(t.rows * t.cols));
    std::memcpy(t.values.data(), bytes.constData() + dataStart, t.values.size() * sizeof(float));
    return t;
}

// The preamble of a C-order little-endian float32 .npy of `rows` x `cols` (format 1.0).
inline QByteArray npyHeader(qint64 rows, qint64 cols)
{
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(rows) + ", "
        + QByteArray::number(cols) + "), }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    return bytes;
}

// The float32 cells of a rows x cols table, row by row, each `cell(p, j)` computed in float64.
inline std::vector<float> cells(qint64 rows, qint64 cols, const std::function<double(qint64, qint64)> &cell)
{
    std::vector<float> out(std::size_t(rows * cols));
    for (qint64 p = 0; p < rows; ++p)
        for (qint64 j = 0; j < cols; ++j)
            out[std::size_t(p * cols + j)] = float(cell(p, j));
    return out;
}

// Writes that .npy, row-major `values`.
inline bool writeNpy(const QString &path, qint64 rows, qint64 cols, const std::vector<float> &values)
{
    QByteArray bytes = npyHeader(rows, cols);
    bytes.append(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// Writes a float32 .npy of any `shape`, row-major `values`.
inline bool writeNpyShaped(const QString &path, const std::vector<qint64> &shape, const std::vector<float> &values)
{
    QByteArrayList dims;
    for (const qint64 d : shape)
        dims.append(QByteArray::number(d));
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims.join(", ")
        + (shape.size() == 1 ? ",), }" : "), }");
    dict.append(QByteArray((64 - (10 + dict.size() + 1) % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    bytes.append(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// `posenc check FILE --json FLAGS...`: its report, with its exit code as "exit".
inline QJsonObject checked(const QString &file, const QStringList &flags)
{
    const Run run = posenc(QStringList {QStringLiteral("check"), file, QStringLiteral("--json")} + flags);
    QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    o[QStringLiteral("exit")] = run.exitCode;
    return o;
}

// Tables written as float32 .npy files into a test's directory, each under a name of its own.
class TableFiles
{
public:
    explicit TableFiles(const QString &directory)
        : m_directory(directory)
    { }

    // The file of the rows x cols table of `cell(p, j)` (computed in float64, stored as float32),
    // or an empty path when it could not be written.
    QString written(qint64 rows, qint64 cols, const std::function<double(qint64, qint64)> &cell)
    {
        const QString file = QDir(m_directory).filePath(QStringLiteral("table-%1.npy").arg(m_count++));
        return writeNpy(file, rows, cols, cells(rows, cols, cell)) ? file : QString();
    }

private:
    QString m_directory;
    int m_count = 0;
};

} // namespace CliRun
