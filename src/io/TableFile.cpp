#include "io/TableFile.h"

#include "io/ArrayRows.h"
#include "io/BufferRows.h"
#include "io/ComplexPairs.h"
#include "io/CsvReader.h"
#include "io/MappedFile.h"
#include "io/MemoryFiles.h"
#include "io/NpyReader.h"
#include "io/NpzReader.h"
#include "io/SafetensorsReader.h"
#include "io/SizeArithmetic.h"
#include "io/StandardInput.h"

#include <QFile>

#include <algorithm>
#include <bit>
#include <cstring>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc::TableFile {

namespace {

// Bytes that any number of threads read at once: a file, or an array inflated from a .npz.
class SharedBytes
{
public:
    virtual ~SharedBytes() = default;
    virtual QString bytesName() const = 0;
    virtual qint64 bytesSize() const = 0;
    // The bytes, from any thread; false with `error` set.
    virtual bool readAt(qint64 offset, qint64 length, char *destination, QString &error) const = 0;
    // The bytes where they lie, or nullptr (readAt them); once read, bytesHeld says whether they
    // were the file's (MappedFile).
    virtual const char *bytesInPlace(qint64, qint64) const { return nullptr; }
    virtual bool bytesHeld(qint64, qint64, QString &) const { return true; }
};

// A file read with pread(2): no shared position, so any number of threads read it at once. Its
// pages are mapped too where they can be, for a check to compare where they lie (MappedFile).
class PreadSource final : public ByteSource, public SharedBytes
{
public:
    explicit PreadSource(const QString &path)
        : m_file(path)
        , m_name(path)
    { }
    // False, with errorString() set, when the path is not a regular file that opens.
    bool open()
    {
        const QString error = openRegularFile(m_file);
        if (!error.isEmpty()) {
            setErrorString(error);
            return false;
        }
        m_size = m_file.size();
        m_map = MappedFile::map(m_file.handle(), m_size);
        return true;
    }
    QString name() const override { return m_name; }
    qint64 size() const override { return m_size; }
    QString bytesName() const override { return name(); }
    qint64 bytesSize() const override { return m_size; }
    bool readAt(qint64 offset, qint64 length, char *destination, QString &error) const override
    {
        if (offset < 0 || length < 0 || offset > m_size || length > m_size - offset) {
            error = u"%1 bytes from byte %2 are outside the file (%3 bytes)"_s.arg(length).arg(offset).arg(m_size);
            return false;
        }
        const int fd = m_file.handle();
        qint64 done = 0;
        while (done < length) {
            const ssize_t got = ::pread(fd, destination + done, std::size_t(length - done), off_t(offset + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                error = got < 0 ? QString::fromLocal8Bit(std::strerror(errno))
                                : u"the file ended at byte %1 while it was being read"_s.arg(offset + done);
                return false;
            }
            done += got;
        }
        return true;
    }
    const char *bytesInPlace(qint64 offset, qint64 length) const override
    {
        return m_map ? m_map->bytes(offset, length) : nullptr;
    }
    bool bytesHeld(qint64 offset, qint64 length, QString &error) const override
    {
        return !m_map || m_map->held(offset, length, error);
    }

protected:
    bool readInside(qint64 offset, qint64 length, char *destination) override
    {
        QString error;
        if (readAt(offset, length, destination, error))
            return true;
        setErrorString(error);
        return false;
    }

private:
    QFile m_file;
    QString m_name; // as given: "-" for standard input
    qint64 m_size = 0;
    std::unique_ptr<MappedFile> m_map; // unmapped before the file closes
};

// A deflated array of a .npz file, inflated whole within the memory budget.
class InflatedBytes final : public SharedBytes
{
public:
    InflatedBytes(QByteArray bytes, QString name)
        : m_bytes(std::move(bytes))
        , m_name(std::move(name))
    { }
    QString bytesName() const override { return m_name; }
    qint64 bytesSize() const override { return m_bytes.size(); }
    bool readAt(qint64 offset, qint64 length, char *destination, QString &error) const override
    {
        if (offset < 0 || length < 0 || offset > m_bytes.size() || length > m_bytes.size() - offset) {
            error = u"%1 bytes from byte %2 are outside the array (%3 bytes)"_s.arg(length).arg(offset).arg(
                m_bytes.size());
            return false;
        }
        std::memcpy(destination, m_bytes.constData() + offset, std::size_t(length));
        return true;
    }
    const char *bytesInPlace(qint64 offset, qint64 length) const override
    {
        const bool inside = offset >= 0 && length >= 0 && offset <= m_bytes.size() && length <= m_bytes.size() - offset;
        return inside ? m_bytes.constData() + offset : nullptr;
    }

private:
    QByteArray m_bytes;
    QString m_name;
};

// The same bytes for one thread's read of Fortran-ordered rows through readArrayRows.
class ThreadSource final : public ByteSource
{
public:
    explicit ThreadSource(const SharedBytes &file)
        : m_file(file)
    { }
    QString name() const override { return m_file.bytesName(); }
    qint64 size() const override { return m_file.bytesSize(); }

protected:
    bool readInside(qint64 offset, qint64 length, char *destination) override
    {
        QString error;
        if (m_file.readAt(offset, length, destination, error))
            return true;
        setErrorString(error);
        return false;
    }

private:
    const SharedBytes &m_file;
};

StoredType storedTypeOf(const ElementType &element)
{
    switch (element.kind) {
    case ElementType::Kind::Float:
        return element.bytes == 8 ? StoredType::Float64
            : element.bytes == 4  ? StoredType::Float32
                                  : StoredType::Float16;
    case ElementType::Kind::BFloat:
        return StoredType::BFloat16;
    case ElementType::Kind::Signed:
    case ElementType::Kind::Unsigned:
    case ElementType::Kind::Bool:
        return StoredType::Integer;
    }
    return StoredType::Float32;
}

class FileRows final : public TableRows
{
public:
    FileRows(std::shared_ptr<const SharedBytes> file, ArrayLayout layout, QString name)
        : m_file(std::move(file))
        , m_layout(layout)
        , m_name(std::move(name))
    { }

    std::int64_t rows() const override { return m_layout.rows; }
    std::int64_t cols() const override { return m_layout.cols; }
    StoredType storedType() const override { return storedTypeOf(m_layout.element); }
    QString name() const override { return m_name; }

    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        if (row0 < 0 || count < 0 || row0 > rows() || count > rows() - row0) {
            error = u"rows %1..%2 were asked for; the table has %3"_s.arg(row0).arg(row0 + count - 1).arg(rows());
            return false;
        }
        if (count == 0 || cols() == 0)
            return true;
        if (m_layout.fortranOrder)
            return readFortran(row0, count, out, error);
        const qint64 bytes = m_layout.element.bytes;
        const qint64 first = m_layout.dataOffset + row0 * cols() * bytes;
        const qint64 cells = count * cols();
        const ElementType native {ElementType::Kind::Float, 4, std::endian::native == std::endian::big};
        if (m_layout.element == native)
            return m_file->readAt(first, cells * 4, reinterpret_cast<char *>(out), error);
        // Other types through a buffer of this thread's, a piece at a time.
        constexpr qint64 kPiece = qint64(1) << 18;
        thread_local QByteArray t_bytes;
        for (qint64 done = 0; done < cells;) {
            const qint64 n = std::min(kPiece, cells - done);
            if (t_bytes.size() < n * bytes)
                t_bytes.resize(n * bytes);
            if (!m_file->readAt(first + done * bytes, n * bytes, t_bytes.data(), error))
                return false;
            m_layout.element.toFloat(t_bytes.constData(), n, out + done);
            done += n;
        }
        return true;
    }
    // Native float32 rows of C order, where the file's mapped pages hold them.
    const float *rowsInPlace(std::int64_t row0, std::int64_t count) const override
    {
        const ElementType native {ElementType::Kind::Float, 4, std::endian::native == std::endian::big};
        if (m_layout.fortranOrder || !(m_layout.element == native) || row0 < 0 || count < 0 || row0 > rows()
            || count > rows() - row0)
            return nullptr;
        const auto [first, bytes] = spanOf(row0, count);
        const char *lying = m_file->bytesInPlace(first, bytes);
        return reinterpret_cast<std::uintptr_t>(lying) % alignof(float) == 0 ? reinterpret_cast<const float *>(lying)
                                                                             : nullptr;
    }
    bool rowsHeld(std::int64_t row0, std::int64_t count, QString &error) const override
    {
        const auto [first, bytes] = spanOf(row0, count);
        return m_file->bytesHeld(first, bytes, error);
    }

private:
    std::pair<qint64, qint64> spanOf(std::int64_t row0, std::int64_t count) const
    {
        const qint64 bytes = m_layout.element.bytes;
        return {m_layout.dataOffset + row0 * cols() * bytes, count * cols() * bytes};
    }
    bool readFortran(std::int64_t row0, std::int64_t count, float *out, QString &error) const
    {
        std::vector<std::int64_t> wanted(static_cast<std::size_t>(count));
        for (std::int64_t r = 0; r < count; ++r)
            wanted[std::size_t(r)] = row0 + r;
        ThreadSource source(*m_file);
        const auto rows = readArrayRows(source, m_layout, RowSelection::listed(std::move(wanted)));
        if (!rows) {
            error = rows.error().reason;
            return false;
        }
        std::copy(rows->data(), rows->data() + count * cols(), out);
        return true;
    }

    std::shared_ptr<const SharedBytes> m_file;
    ArrayLayout m_layout;
    QString m_name;
};

// An array's shape as a table: two dimensions, or more of which all but two are 1. With `shape`
// (openTensor), any other array of C order is read as rows of its last dimension, its shape kept
// there: a vector one row, [B, H, L, L] B·H·L rows of L.
ReadResult<ArrayLayout> tableLayout(const TensorInfo &info, qint64 dataOffset, bool fortranOrder, const QString &path,
                                    std::vector<std::int64_t> *shapeOut = nullptr)
{
    const auto refuse = [&](const QString &reason) { return ReadError {path, reason, ReadError::Kind::Choice}; };
    const QString what = info.name.isEmpty() ? u"the array"_s : u"tensor '%1'"_s.arg(info.name);
    const QString shape = info.shapeText(info.name.isEmpty());
    if (!info.element)
        return refuse(u"%1 has dtype %2, which is not a table of numbers (F16, BF16, F32, F64 or integers)"_s.arg(
            what, info.dtype));
    std::vector<std::int64_t> dims = info.shape;
    for (std::size_t i = 0; dims.size() > 2 && i < dims.size();) {
        if (dims[i] == 1)
            dims.erase(dims.begin() + std::ptrdiff_t(i));
        else
            ++i;
    }
    if (shapeOut)
        *shapeOut = info.shape;
    // A scalar is one row of one value, for the caller to refuse with the shapes it reads.
    if (dims.size() != 2 && shapeOut && (!fortranOrder || info.shape.size() <= 1)) {
        std::int64_t rows = 1;
        for (std::size_t i = 0; i + 1 < info.shape.size(); ++i)
            rows *= info.shape[i];
        return ArrayLayout {dataOffset, rows, info.shape.empty() ? 1 : info.shape.back(), *info.element, false};
    }
    if (dims.size() != 2)
        return refuse(u"%1 is %2-D, shape %3; a table of positions is L x d (dimensions of 1 aside)"_s.arg(what)
                          .arg(info.shape.size())
                          .arg(shape));
    return ArrayLayout {dataOffset, dims[0], dims[1], *info.element, fortranOrder};
}

// An array's rows as a table (tableLayout), pairs as theirs (ComplexPairs): a complex array's always
// as cat(real, imaginary), a real array's [.., L, K, 2] of one modulus as its order reads (a complex
// cache's (cos, sin) as cat(real, imaginary), else rows of 2K as the file lays them out), else as
// tableLayout reads it. `shape` gets the table's: the file's, the pairs' 2 aside, its last doubled.
ReadResult<std::shared_ptr<const TableRows>> rowsOf(std::unique_ptr<const SharedBytes> file, const TensorInfo &info,
                                                    qint64 dataOffset, bool fortranOrder, const QString &path,
                                                    const QString &name, std::vector<std::int64_t> *shape)
{
    const auto pairs = fortranOrder ? std::nullopt : ComplexPairs::pairsOf(info.shape, info.complex);
    const std::shared_ptr<const SharedBytes> bytes = std::move(file);
    if (pairs && info.element) {
        const ArrayLayout raw {dataOffset, pairs->rows * pairs->k, 2, *info.element, false};
        auto rows = std::shared_ptr<const TableRows>(std::make_shared<FileRows>(bytes, raw, name));
        const auto order = info.complex                 ? std::optional(ComplexPairs::Order::CosSin)
            : ComplexPairs::oneModulus(*rows, pairs->k) ? std::optional(ComplexPairs::orderOf(*rows, *pairs))
                                                        : std::nullopt;
        if (order) {
            // A table alone (open) is one whose dimensions but two are 1.
            const auto &table = pairs->tableShape;
            const auto longer = std::count_if(table.begin(), table.end(), [](std::int64_t d) { return d != 1; });
            if (!shape && longer > 2)
                return tableLayout(info, dataOffset, fortranOrder, path).error();
            if (shape)
                *shape = table;
            const QString words
                = ComplexPairs::readingWords(*order, info.complex, info.shapeText(info.name.isEmpty()), *pairs);
            if (*order == ComplexPairs::Order::CosSin)
                return ComplexPairs::asTable(std::move(rows), *pairs, words);
            // The file's own rows of 2K, the pairs interleaved as it holds them.
            const ArrayLayout flat {dataOffset, pairs->rows, 2 * pairs->k, *info.element, false};
            return std::shared_ptr<const TableRows>(
                std::make_shared<FileRows>(bytes, flat, u"%1 (%2)"_s.arg(name, words)));
        }
    }
    const auto layout = tableLayout(info, dataOffset, fortranOrder, path, shape);
    if (!layout)
        return layout.error();
    return std::shared_ptr<const TableRows>(std::make_shared<FileRows>(bytes, layout.value(), name));
}

// An array of a .npz file: a stored one read where it lies in the archive, as a .npy file is; a
// deflated one (savez_compressed) inflated whole, within the memory budget.
ReadResult<std::shared_ptr<const TableRows>> openNpz(std::unique_ptr<PreadSource> file, const MatrixSource &source,
                                                     std::uint64_t memoryBudget, std::vector<std::int64_t> *shape)
{
    const auto members = NpzReader::members(*file);
    if (!members)
        return members.error();
    const auto member = NpzReader::choose(members.value(), source.tensor, source.path);
    if (!member)
        return member.error();
    const QString name = source.path + u':' + member->name;
    if (!member->deflated) {
        MemberByteSource bytes(*file, member.value());
        const auto array = NpyReader::inspect(bytes);
        if (!array)
            return array.error();
        return rowsOf(std::move(file), array->info, member->dataOffset + array->dataOffset, array->fortranOrder, name,
                      name, shape);
    }
    const qint64 maxBytes = qint64(std::min<std::uint64_t>(memoryBudget, std::uint64_t(1) << 62));
    auto inflated = NpzReader::inflate(*file, member.value(), maxBytes);
    if (!inflated)
        return inflated.error();
    MemoryByteSource bytes(inflated.value(), name);
    const auto array = NpyReader::inspect(bytes);
    if (!array)
        return array.error();
    return rowsOf(std::make_unique<InflatedBytes>(std::move(inflated.value()), name), array->info, array->dataOffset,
                  array->fortranOrder, name, name, shape);
}

// The rows of the file; with `shape`, any array's (tableLayout), its shape there.
ReadResult<std::shared_ptr<const TableRows>> openRows(const MatrixSource &source, std::uint64_t memoryBudget,
                                                      const std::atomic<bool> *cancel, std::vector<std::int64_t> *shape)
{
    // An array the Python module checks, read where it lies (MemoryFiles): a table, or with `shape`
    // any array, as a file's (tableLayout).
    if (auto rows = MemoryFiles::table(source.toString())) {
        if (const auto arrayShape = BufferRows::arrayShape(*rows)) {
            if (!shape)
                return ReadError {rows->name(),
                                  u"the array is %1-D, shape %2; a table of positions is L x d (dimensions of 1 "
                                  "aside)"_s.arg(arrayShape->size())
                                      .arg(BufferRows::shapeText(*arrayShape)),
                                  ReadError::Kind::Choice};
            *shape = *arrayShape;
        }
        return rows;
    }
    auto file = std::make_unique<PreadSource>(source.path);
    file->setCancel(cancel);
    if (!file->open())
        return ReadError {source.path, u"cannot open the file: %1"_s.arg(file->errorString())};
    const QString suffix = StandardInput::suffix(source.path);
    char magic[6] = {};
    const bool npy = (file->size() >= 6 && file->read(0, 6, magic) && QByteArrayView(magic, 6) == "\x93NUMPY")
        || suffix == u"npy"_s;
    if (npy || suffix == u"safetensors"_s) {
        if (npy && source.tensor)
            return ReadError {
                source.path, u"a .npy file holds one array, so there is no tensor '%1' to choose"_s.arg(*source.tensor),
                ReadError::Kind::Choice};
        if (npy) {
            const auto array = NpyReader::inspect(*file);
            if (!array)
                return array.error();
            return rowsOf(std::move(file), array->info, array->dataOffset, array->fortranOrder, source.path,
                          source.toString(), shape);
        }
        const auto contents = SafetensorsReader::inspect(*file);
        if (!contents)
            return contents.error();
        const auto tensor = SafetensorsReader::choose(contents.value(), source.tensor, source.path);
        if (!tensor)
            return tensor.error();
        return rowsOf(std::move(file), tensor->info, contents->dataStart + tensor->begin, false, source.path,
                      source.toString(), shape);
    }
    if (NpzReader::hasMagic(QByteArrayView(magic, 6)) || suffix == u"npz"_s)
        return openNpz(std::move(file), source, memoryBudget, shape);
    if (suffix == u"csv"_s || suffix == u"txt"_s || suffix == u"tsv"_s) {
        if (source.tensor)
            return ReadError {
                source.path, u"a text file holds one table, so there is no tensor '%1' to choose"_s.arg(*source.tensor),
                ReadError::Kind::Choice};
        // A float32 and, where cells show different roundings, a byte of its rounding a cell.
        const auto maxCells
            = std::int64_t(std::min<std::uint64_t>(memoryBudget / (sizeof(float) + 1), std::uint64_t(1) << 62));
        // A causal mask's -inf is a table's value: the check compares it.
        auto table = CsvReader::read(*file, maxCells, CsvReader::Infinities::Kept);
        if (!table)
            return table.error();
        auto values = std::make_shared<const RowMatrixXf>(std::move(table.value().values));
        static_assert(CsvReader::Table::kExact == MatrixRows::kNoCellRounding);
        return std::shared_ptr<const TableRows>(std::make_shared<MatrixRows>(
            std::move(values), StoredType::Text, source.path, table->textRounding, std::move(table->cellRounding)));
    }
    return ReadError {
        source.path,
        u"unknown format: neither a .npy file (it does not start with \\x93NUMPY), nor named *.safetensors, "
        "*.npz, *.csv, *.tsv or *.txt"_s};
}

} // namespace

ReadResult<std::shared_ptr<const TableRows>> open(const MatrixSource &source, std::uint64_t memoryBudget,
                                                  const std::atomic<bool> *cancel)
{
    return openRows(source, memoryBudget, cancel, nullptr);
}

ReadResult<Tensor> openTensor(const MatrixSource &source, std::uint64_t memoryBudget, const std::atomic<bool> *cancel)
{
    // A table read whole (a CSV file, an array the Python module gives) has its rows' shape; an
    // array's is its own (a scalar's empty).
    constexpr std::int64_t kUnset = -1;
    std::vector<std::int64_t> shape {kUnset};
    auto rows = openRows(source, memoryBudget, cancel, &shape);
    if (!rows)
        return rows.error();
    if (shape == std::vector<std::int64_t> {kUnset})
        shape = {rows.value()->rows(), rows.value()->cols()};
    return Tensor {std::move(shape), std::move(rows.value())};
}

} // namespace posenc::TableFile
