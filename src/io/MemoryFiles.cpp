#include "io/MemoryFiles.h"

namespace posenc::MemoryFiles {

namespace {

// The innermost scope of this thread; each scope keeps the one it covers.
thread_local Scope *t_scope = nullptr;

template<typename Entries> auto *findIn(Entries &entries, const QString &name)
{
    for (auto &entry : entries) {
        if (entry.first == name)
            return &entry.second;
    }
    return static_cast<decltype(&entries.front().second)>(nullptr);
}

} // namespace

Scope::Scope()
    : m_outer(t_scope)
{
    t_scope = this;
}

Scope::~Scope()
{
    t_scope = m_outer;
}

void Scope::addTable(const QString &name, std::shared_ptr<const TableRows> rows)
{
    m_tables.emplace_back(name, std::move(rows));
}

void Scope::addFile(const QString &name, QByteArray bytes)
{
    m_files.emplace_back(name, std::move(bytes));
}

void Scope::captureOutput(const QString &name)
{
    m_outputs.emplace_back(name, QByteArray());
}

QByteArray Scope::written(const QString &name) const
{
    for (const auto &[output, bytes] : m_outputs) {
        if (output == name)
            return bytes;
    }
    return {};
}

std::shared_ptr<const TableRows> table(const QString &name)
{
    for (Scope *scope = t_scope; scope; scope = scope->m_outer) {
        if (const auto *rows = findIn(scope->m_tables, name))
            return *rows;
    }
    return nullptr;
}

std::optional<QByteArray> file(const QString &name)
{
    for (Scope *scope = t_scope; scope; scope = scope->m_outer) {
        if (const auto *bytes = findIn(scope->m_files, name))
            return *bytes;
    }
    return std::nullopt;
}

QByteArray *output(const QString &name)
{
    for (Scope *scope = t_scope; scope; scope = scope->m_outer) {
        if (auto *bytes = findIn(scope->m_outputs, name))
            return bytes;
    }
    return nullptr;
}

} // namespace posenc::MemoryFiles
