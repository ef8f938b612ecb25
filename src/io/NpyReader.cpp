#include "io/NpyReader.h"

#include "io/NpyHeader.h"
#include "io/SizeArithmetic.h"

#include <QByteArray>
#include <QtEndian>

using namespace Qt::StringLiterals;

namespace posenc::NpyReader {

namespace {

const QByteArray kMagic("\x93NUMPY", 6);

ReadError fileError(const ByteSource &source, const QString &reason)
{
    return ReadError {source.name(), reason, ReadError::Kind::File};
}

} // namespace

ReadResult<NpyArray> inspect(ByteSource &source)
{
    const qint64 size = source.size();
    char preamble[12] = {};
    const qint64 magicBytes = std::min<qint64>(size, 6);
    if (!source.read(0, magicBytes, preamble))
        return fileError(source, source.errorString());
    if (QByteArrayView(preamble, magicBytes) != kMagic.first(magicBytes) || size == 0)
        return fileError(source, u"not a .npy file: it does not start with the magic \\x93NUMPY"_s);
    if (size < 10)
        return fileError(source,
                         u"the file is too short for a .npy file (%1 bytes; the preamble alone needs 10)"_s.arg(size));
    if (!source.read(6, 4, preamble + 6))
        return fileError(source, source.errorString());
    const int major = quint8(preamble[6]);
    const int minor = quint8(preamble[7]);
    if (minor != 0 || major < 1 || major > 3)
        return fileError(
            source,
            u"unsupported .npy format version %1.%2 (this reader knows 1.0, 2.0 and 3.0)"_s.arg(major).arg(minor));

    qint64 headerLength = 0;
    qint64 headerStart = 10;
    if (major == 1) {
        headerLength = qFromLittleEndian<quint16>(preamble + 8);
    } else {
        if (size < 12)
            return fileError(
                source,
                u"the file is too short for a .npy %1.0 file (%2 bytes; the preamble needs 12)"_s.arg(major).arg(size));
        if (!source.read(10, 2, preamble + 10))
            return fileError(source, source.errorString());
        headerLength = qFromLittleEndian<quint32>(preamble + 8);
        headerStart = 12;
    }
    if (headerLength > size - headerStart)
        return fileError(source,
                         u"header length %1 runs past the end of the file (%2 bytes)"_s.arg(headerLength).arg(size));
    if (headerLength > kMaxHeaderLength)
        return fileError(source,
                         u"header length %1 is over the limit of %2 bytes"_s.arg(headerLength).arg(kMaxHeaderLength));

    QByteArray text(headerLength, Qt::Uninitialized);
    if (!source.read(headerStart, headerLength, text.data()))
        return fileError(source, source.errorString());
    // Versions 1.0 and 2.0 are latin-1, which any bytes are; 3.0 promises UTF-8.
    if (major == 3 && !QByteArrayView(text).isValidUtf8())
        return fileError(source, u"the header is not valid UTF-8"_s);
    NpyHeader header;
    if (const auto why = parseNpyHeader(text, major == 3 ? NpyTextEncoding::Utf8 : NpyTextEncoding::Latin1, header))
        return fileError(source, *why);

    // A complex array (c8, c16: a complex freqs_cis as numpy saves it) is read as torch.view_as_real
    // gives it, its real and imaginary parts a last dimension of 2 (docs/ARCHITECTURE.md, Checking a
    // table, "Shapes"); numpy stores each element's two parts together, so in C order only.
    QString descr = header.descr;
    const bool complex = descr.size() >= 3 && descr[1] == u'c' && (descr.mid(2) == u"8"_s || descr.mid(2) == u"16"_s);
    if (complex) {
        if (header.fortranOrder)
            return fileError(source, u"a complex array (dtype '%1') in Fortran order is not read; save "
                                     "np.ascontiguousarray of it"_s.arg(header.descr));
        descr = descr.first(1) + u'f' + QString::number(descr.mid(2).toInt() / 2);
        header.shape.push_back(2);
    }
    QString why;
    const auto element = npyElementType(descr, why);
    if (!element)
        return fileError(source, why);

    NpyArray array;
    array.info.dtype = header.descr;
    array.info.shape = header.shape;
    array.info.element = element;
    array.info.complex = complex;
    array.fortranOrder = header.fortranOrder;
    array.dataOffset = headerStart + headerLength;
    const QString shape = array.info.shapeText(true);
    const auto elements = checkedProduct(header.shape);
    if (!elements)
        return fileError(source, u"the shape %1 has more elements than a 64-bit size can count"_s.arg(shape));
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(*elements, std::int64_t(element->bytes), &bytes))
        return fileError(
            source, u"the shape %1 of %2 needs more bytes than a 64-bit size can count"_s.arg(shape, header.descr));
    const qint64 available = size - array.dataOffset;
    if (bytes > available)
        return fileError(source,
                         u"the data is truncated: shape %1 of %2 needs %3 bytes after the header; the file "
                         "has %4"_s.arg(shape, header.descr)
                             .arg(bytes)
                             .arg(available));
    if (bytes < available)
        return fileError(
            source,
            u"%1 trailing bytes after the data of shape %2 of %3"_s.arg(available - bytes).arg(shape, header.descr));
    return array;
}

ReadResult<MatrixInFile> inspectMatrix(ByteSource &source)
{
    const auto array = inspect(source);
    if (!array)
        return array.error();
    const TensorInfo &info = array->info;
    if (info.complex)
        return ReadError {source.name(),
                          u"the array is complex (dtype '%1', shape %2); a matrix [rows, columns] is of real "
                          "numbers"_s.arg(info.dtype, info.shapeText(true)),
                          ReadError::Kind::Choice};
    if (!info.isMatrix())
        return ReadError {source.name(),
                          u"the array is %1-D, shape %2; a matrix [rows, columns] is 2-D"_s.arg(info.shape.size())
                              .arg(info.shapeText(true)),
                          ReadError::Kind::Choice};
    return MatrixInFile {
        info, ArrayLayout {array->dataOffset, info.shape[0], info.shape[1], *info.element, array->fortranOrder}};
}

ReadResult<RowMatrixXf> readMatrix(ByteSource &source, const RowSelection &selection)
{
    const auto matrix = inspectMatrix(source);
    if (!matrix)
        return matrix.error();
    return readArrayRows(source, matrix->layout, selection);
}

ReadResult<RowMatrixXf> readMatrix(QByteArrayView bytes, const QString &name, const RowSelection &selection)
{
    MemoryByteSource source(bytes, name);
    return readMatrix(source, selection);
}

} // namespace posenc::NpyReader
