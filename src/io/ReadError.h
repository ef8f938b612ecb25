#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace posenc {

// Why a matrix could not be read: the message names both the path and the reason.
struct ReadError
{
    enum class Kind {
        File, // the file cannot be read, or is malformed or hostile
        Choice, // the file is sound, but what was asked of it is not there (no such tensor, not a matrix)
        OverBudget, // the file is sound, but holding what it holds would pass the memory budget
    };

    QString path;
    QString reason;
    Kind kind = Kind::File;

    QString toString() const;
};

// A value, or the ReadError that prevented it.
template<typename T> class ReadResult
{
public:
    ReadResult(T value)
        : m_value(std::move(value))
    { }
    ReadResult(ReadError error)
        : m_error(std::move(error))
    { }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const { return *m_value; }
    T &value() { return *m_value; }
    const T *operator->() const { return &*m_value; }
    const ReadError &error() const { return m_error; }

private:
    std::optional<T> m_value;
    ReadError m_error;
};

} // namespace posenc
