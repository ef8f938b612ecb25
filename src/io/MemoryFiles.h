#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace posenc {

class TableRows;

// Files that live in memory for the commands run by the Python module (docs/ARCHITECTURE.md,
// Python): a numpy array given as the table of `posenc check`, a config given as a dict, the
// bytes `posenc table` and `posenc export` write. While a Scope lives, on the thread that made it,
// the doors of the readers and writers (TableFile::open, ModelConfigFile::read, OutputFile::write)
// take its names for these files, so that the commands run as they are, word for word. Names are
// written like Python's own pseudo-files ("<array>"); no other thread and no command line sees them.
namespace MemoryFiles {

class Scope
{
public:
    Scope();
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

    // `name` is read as the table `rows` (a FILE, or the FILE of --expect-table or --apply).
    void addTable(const QString &name, std::shared_ptr<const TableRows> rows);
    // `name` is read as a file holding `bytes` (a config).
    void addFile(const QString &name, QByteArray bytes);
    // What is written to `name` is kept in memory, whole, and given by written().
    void captureOutput(const QString &name);
    // The bytes last written to a captured output.
    QByteArray written(const QString &name) const;

private:
    friend std::shared_ptr<const TableRows> table(const QString &name);
    friend std::optional<QByteArray> file(const QString &name);
    friend QByteArray *output(const QString &name);

    std::vector<std::pair<QString, std::shared_ptr<const TableRows>>> m_tables;
    std::vector<std::pair<QString, QByteArray>> m_files;
    std::vector<std::pair<QString, QByteArray>> m_outputs;
    Scope *m_outer = nullptr;
};

// The table of this thread's scopes named `name`, or null.
std::shared_ptr<const TableRows> table(const QString &name);
// The bytes of this thread's file named `name`, or nothing.
std::optional<QByteArray> file(const QString &name);
// Where this thread's output named `name` is kept, or null.
QByteArray *output(const QString &name);

} // namespace MemoryFiles

} // namespace posenc
