#pragma once

#include "core/Block.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace posenc {

// How the cells of a checked table were stored: it bounds the rounding a correct table shows
// (docs/ARCHITECTURE.md, Checking a table).
enum class StoredType { Float64, Float32, Float16, BFloat16, Integer, Text };

// What a cell that is not finite holds, as a message says it: "NaN", "an infinity", or, for a table
// stored wider than float32 (float64, text) that is read as float32, "an infinity or a number past
// float32's range (|x| > 3.4e38)": 1e300 in a float64 file is no infinity.
QString nonFiniteWords(float value, StoredType stored);

// The rows of a table being checked (positions x columns), read as float32 a run at a time,
// so that a check holds a few chunks of any table, never the whole.
class TableRows
{
public:
    virtual ~TableRows() = default;

    virtual std::int64_t rows() const = 0;
    virtual std::int64_t cols() const = 0;
    virtual StoredType storedType() const = 0;
    // Half a unit in the last digit written, for a table stored as text (0.5e-6 for "%.6f"): the
    // one most of its cells show; 0 for binary tables.
    virtual double textRounding() const { return 0.0; }
    // Whether some cells were written with fewer digits than textRounding() says ("1.00" among
    // "%.6f" cells), each then allowed its own rounding, not the whole table.
    virtual bool hasCellRounding() const { return false; }
    // Adds to extra[r * cols + c] how much coarser than textRounding() the cell (row0 + r, col0 + c)
    // is written (0 for most), for r < count and c < cols.
    virtual void addCellRounding(std::int64_t row0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                                 float *extra) const;
    // What messages call it: the path, or path:tensor.
    virtual QString name() const = 0;
    // Rows [row0, row0 + count) into `out`, row r at out + r * cols(). May be called from several
    // threads at once. False, with `error` set to the reason, when the rows cannot be read.
    virtual bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const = 0;
    // Rows [row0, row0 + count) where they lie as float32, row r at + r * cols() (a file's mapped
    // pages), for a stream to compare without copying them; nullptr where they must be read().
    // Rows used so are then confirmed with rowsHeld.
    virtual const float *rowsInPlace(std::int64_t, std::int64_t) const { return nullptr; }
    // Once rows given in place were compared: false, with `error` set, when the file was cut short
    // while they were (they did not hold the table then), as a read() of them would have failed.
    virtual bool rowsHeld(std::int64_t, std::int64_t, QString &) const { return true; }
};

// The rows of another table changed as they are read (its columns or rows in another order, a
// block negated): its shape, storage, rounding and name are the other table's.
class DerivedRows : public TableRows
{
public:
    explicit DerivedRows(std::shared_ptr<const TableRows> rows)
        : m_rows(std::move(rows))
    { }
    std::int64_t rows() const override { return m_rows->rows(); }
    std::int64_t cols() const override { return m_rows->cols(); }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_rows->name(); }

protected:
    std::shared_ptr<const TableRows> m_rows;
};

// Rows [first, first + count) of another table (a model's wpe read from a cache's offset): its
// row r the other's row first + r. The other table and the first row are kept, to search it whole
// (TableRowShift).
class RowRange final : public DerivedRows
{
public:
    RowRange(std::shared_ptr<const TableRows> rows, std::int64_t first, std::int64_t count)
        : DerivedRows(std::move(rows))
        , m_first(first)
        , m_count(count)
    { }
    std::int64_t rows() const override { return m_count; }
    QString name() const override
    {
        return m_rows->name() + QStringLiteral("[%1:%2]").arg(m_first).arg(m_first + m_count);
    }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        return m_rows->read(m_first + row0, count, out, error);
    }
    const float *rowsInPlace(std::int64_t row0, std::int64_t count) const override
    {
        return m_rows->rowsInPlace(m_first + row0, count);
    }
    bool rowsHeld(std::int64_t row0, std::int64_t count, QString &error) const override
    {
        return m_rows->rowsHeld(m_first + row0, count, error);
    }
    const std::shared_ptr<const TableRows> &whole() const { return m_rows; }
    std::int64_t first() const { return m_first; }

private:
    std::int64_t m_first, m_count;
};

// A table already in memory: the tests' tables, a CSV file read whole.
class MatrixRows final : public TableRows
{
public:
    // `cellRounding`: each cell's rounding exponent e (0.5 * 10^e) where it is coarser than
    // `textRounding`, else kNoCellRounding, row-major; or empty.
    MatrixRows(std::shared_ptr<const RowMatrixXf> values, StoredType stored, QString name, double textRounding = 0.0,
               std::vector<std::int8_t> cellRounding = {});

    static constexpr std::int8_t kNoCellRounding = -128;

    std::int64_t rows() const override { return m_values->rows(); }
    std::int64_t cols() const override { return m_values->cols(); }
    StoredType storedType() const override { return m_stored; }
    double textRounding() const override { return m_textRounding; }
    bool hasCellRounding() const override { return !m_cellRounding.empty(); }
    void addCellRounding(std::int64_t row0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                         float *extra) const override;
    QString name() const override { return m_name; }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override;

private:
    std::shared_ptr<const RowMatrixXf> m_values;
    StoredType m_stored;
    QString m_name;
    double m_textRounding;
    std::vector<std::int8_t> m_cellRounding;
};

} // namespace posenc
