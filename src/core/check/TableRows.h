#pragma once

#include "core/Block.h"

#include <QString>

#include <cstdint>
#include <memory>

namespace posenc {

// How the cells of a checked table were stored: it bounds the rounding a correct table shows
// (docs/ARCHITECTURE.md, Checking a table).
enum class StoredType { Float64, Float32, Float16, BFloat16, Integer, Text };

// The rows of a table being checked (positions x columns), read as float32 a run at a time,
// so that a check holds a few chunks of any table, never the whole.
class TableRows
{
public:
    virtual ~TableRows() = default;

    virtual std::int64_t rows() const = 0;
    virtual std::int64_t cols() const = 0;
    virtual StoredType storedType() const = 0;
    // Half a unit in the last digit written, for a table stored as text (0.5e-6 for "%.6f");
    // 0 for binary tables.
    virtual double textRounding() const { return 0.0; }
    // What messages call it: the path, or path:tensor.
    virtual QString name() const = 0;
    // Rows [row0, row0 + count) into `out`, row r at out + r * cols(). May be called from several
    // threads at once. False, with `error` set to the reason, when the rows cannot be read.
    virtual bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const = 0;
};

// A table already in memory: the tests' tables, a CSV file read whole.
class MatrixRows final : public TableRows
{
public:
    MatrixRows(std::shared_ptr<const RowMatrixXf> values, StoredType stored, QString name, double textRounding = 0.0);

    std::int64_t rows() const override { return m_values->rows(); }
    std::int64_t cols() const override { return m_values->cols(); }
    StoredType storedType() const override { return m_stored; }
    double textRounding() const override { return m_textRounding; }
    QString name() const override { return m_name; }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override;

private:
    std::shared_ptr<const RowMatrixXf> m_values;
    StoredType m_stored;
    QString m_name;
    double m_textRounding;
};

} // namespace posenc
