#include "io/MatrixFile.h"

#include "io/ByteSource.h"
#include "io/NpyReader.h"
#include "io/SafetensorsReader.h"
#include "io/StandardInput.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

bool isMatrixFile(const QString &path)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    return info.isFile() && (suffix == u"npy"_s || suffix == u"npz"_s || suffix == u"safetensors"_s);
}

} // namespace

MatrixSource MatrixSource::parse(const QString &text)
{
    for (qsizetype colon = text.indexOf(u':'); colon >= 0; colon = text.indexOf(u':', colon + 1)) {
        if (isMatrixFile(text.left(colon)))
            return {text.left(colon), text.mid(colon + 1)};
    }
    const qsizetype colon = text.lastIndexOf(u':');
    if (colon < 0 || QFileInfo::exists(text))
        return {text, std::nullopt};
    return {text.left(colon), text.mid(colon + 1)};
}

QString MatrixSource::toString() const
{
    return tensor ? path + u':' + *tensor : path;
}

namespace MatrixFile {

namespace {

enum class Format { Npy, Safetensors };

// Opens the file and tells its format, or says why it has none.
ReadResult<Format> open(FileByteSource &file)
{
    const QString path = file.name();
    if (!file.open())
        return ReadError {path, u"cannot open the file: %1"_s.arg(file.errorString())};
    char magic[6] = {};
    const bool hasMagic = file.size() >= 6 && file.read(0, 6, magic) && QByteArrayView(magic, 6) == "\x93NUMPY";
    const QString suffix = StandardInput::suffix(path);
    if (hasMagic || suffix == u"npy"_s)
        return Format::Npy;
    if (suffix == u"safetensors"_s)
        return Format::Safetensors;
    // A format posenc check reads (an archive, a text table) is named as one this reader does
    // not take, not as unknown.
    if (suffix == u"npz"_s || suffix == u"csv"_s || suffix == u"tsv"_s || suffix == u"txt"_s)
        return ReadError {path,
                          u"a .%1 file is not read as a matrix here: save it as a .npy file (numpy.save) "
                          "or a .safetensors tensor"_s.arg(suffix)};
    return ReadError {path,
                      u"unknown format: neither a .npy file (it does not start with \\x93NUMPY) nor named "
                      "*.safetensors"_s};
}

ReadResult<MatrixInFile> inspectMatrix(FileByteSource &file, Format format, const std::optional<QString> &tensor)
{
    if (format == Format::Safetensors)
        return SafetensorsReader::inspectMatrix(file, tensor);
    if (tensor)
        return ReadError {file.name(),
                          u"a .npy file holds one array, so there is no tensor '%1' to choose"_s.arg(*tensor),
                          ReadError::Kind::Choice};
    return NpyReader::inspectMatrix(file);
}

} // namespace

ReadResult<std::vector<TensorInfo>> list(const QString &path)
{
    FileByteSource file(path);
    const auto format = open(file);
    if (!format)
        return format.error();
    if (format.value() == Format::Safetensors) {
        const auto contents = SafetensorsReader::inspect(file);
        if (!contents)
            return contents.error();
        return contents->infos();
    }
    const auto array = NpyReader::inspect(file);
    if (!array)
        return array.error();
    return std::vector<TensorInfo> {array->info};
}

ReadResult<TensorInfo> inspect(const MatrixSource &source)
{
    FileByteSource file(source.path);
    const auto format = open(file);
    if (!format)
        return format.error();
    const auto matrix = inspectMatrix(file, format.value(), source.tensor);
    if (!matrix)
        return matrix.error();
    return matrix->info;
}

ReadResult<RowMatrixXf> load(const MatrixSource &source, const RowSelection &selection, const std::atomic<bool> *cancel)
{
    FileByteSource file(source.path);
    file.setCancel(cancel);
    const auto format = open(file);
    if (!format)
        return format.error();
    const auto matrix = inspectMatrix(file, format.value(), source.tensor);
    if (!matrix)
        return matrix.error();
    return readArrayRows(file, matrix->layout, selection);
}

} // namespace MatrixFile

} // namespace posenc
