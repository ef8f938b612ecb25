#include "io/SafetensorsReader.h"

#include <QByteArray>
#include <QStringList>
#include <QtEndian>

using namespace Qt::StringLiterals;

namespace posenc {

std::vector<TensorInfo> SafetensorsFile::infos() const
{
    std::vector<TensorInfo> out;
    out.reserve(tensors.size());
    for (const SafetensorsTensor &t : tensors)
        out.push_back(t.info);
    return out;
}

namespace SafetensorsReader {

namespace {

ReadError fileError(const ByteSource &source, const QString &reason)
{
    return ReadError {source.name(), reason, ReadError::Kind::File};
}

// "a, b, c" or "a, b, ... (40 in all)": enough names to choose from without flooding a terminal.
QString someNames(const SafetensorsFile &file)
{
    constexpr std::size_t kShown = 8;
    QStringList names;
    for (std::size_t i = 0; i < file.tensors.size() && i < kShown; ++i)
        names.append(file.tensors[i].info.name);
    QString text = names.join(u", "_s);
    if (file.tensors.size() > kShown)
        text += u", ... (%1 in all)"_s.arg(file.tensors.size());
    return text;
}

} // namespace

ReadResult<SafetensorsFile> inspect(ByteSource &source)
{
    const qint64 size = source.size();
    if (size < 8)
        return fileError(source,
                         u"the file is too short for a .safetensors file (%1 bytes; the header length alone "
                         "needs 8)"_s.arg(size));
    char lengthField[8];
    if (!source.read(0, 8, lengthField))
        return fileError(source, source.errorString());
    const quint64 headerLength = qFromLittleEndian<quint64>(lengthField);
    if (headerLength > quint64(size - 8))
        return fileError(source,
                         u"header length %1 runs past the end of the file (%2 bytes)"_s.arg(headerLength).arg(size));
    if (headerLength > quint64(kMaxHeaderLength))
        return fileError(source,
                         u"header length %1 is over the limit of %2 bytes"_s.arg(headerLength).arg(kMaxHeaderLength));

    QByteArray json(qsizetype(headerLength), Qt::Uninitialized);
    if (!source.read(8, qint64(headerLength), json.data()))
        return fileError(source, source.errorString());
    SafetensorsFile file;
    file.dataStart = 8 + qint64(headerLength);
    if (const auto why = parseSafetensorsHeader(json, size - file.dataStart, file.tensors))
        return fileError(source, *why);
    return file;
}

ReadResult<SafetensorsTensor> choose(const SafetensorsFile &file, const QString &name, const QString &path)
{
    const auto refuse = [&](const QString &reason) { return ReadError {path, reason, ReadError::Kind::Choice}; };
    if (file.tensors.empty())
        return refuse(u"the file holds no tensor"_s);
    if (name.isEmpty()) {
        if (file.tensors.size() == 1)
            return file.tensors.front();
        return refuse(u"the file holds %1 tensors (%2); choose one with FILE:TENSOR"_s.arg(file.tensors.size())
                          .arg(someNames(file)));
    }
    for (const SafetensorsTensor &t : file.tensors) {
        if (t.info.name == name)
            return t;
    }
    return refuse(u"there is no tensor named '%1'; the file holds %2"_s.arg(name, someNames(file)));
}

ReadResult<MatrixInFile> inspectMatrix(ByteSource &source, const QString &name)
{
    const auto file = inspect(source);
    if (!file)
        return file.error();
    const auto chosen = choose(file.value(), name, source.name());
    if (!chosen)
        return chosen.error();
    const TensorInfo &info = chosen->info;
    const auto refuse = [&](const QString &reason) {
        return ReadError {source.name(), u"tensor '%1': %2"_s.arg(info.name, reason), ReadError::Kind::Choice};
    };
    if (!info.isMatrix())
        return refuse(u"it is %1-D, shape %2; a matrix [rows, columns] is 2-D"_s.arg(info.shape.size())
                          .arg(info.shapeText(false)));
    if (!info.element)
        return refuse(u"its dtype %1 is not one a matrix loads from (F16, BF16, F32 or F64)"_s.arg(info.dtype));
    return MatrixInFile {
        info, ArrayLayout {file->dataStart + chosen->begin, info.shape[0], info.shape[1], *info.element, false}};
}

ReadResult<RowMatrixXf> readMatrix(ByteSource &source, const QString &name, const RowSelection &selection)
{
    const auto matrix = inspectMatrix(source, name);
    if (!matrix)
        return matrix.error();
    return readArrayRows(source, matrix->layout, selection);
}

ReadResult<RowMatrixXf> readMatrix(QByteArrayView bytes, const QString &path, const QString &name,
                                   const RowSelection &selection)
{
    MemoryByteSource source(bytes, path);
    return readMatrix(source, name, selection);
}

} // namespace SafetensorsReader

} // namespace posenc
