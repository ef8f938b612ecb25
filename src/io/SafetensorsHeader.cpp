#include "io/SafetensorsHeader.h"

#include "io/JsonKeys.h"
#include "io/SizeArithmetic.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QString kMetadataKey = u"__metadata__"_s;

struct DtypeInfo
{
    const char *name;
    int bytes;
    std::optional<ElementType> element; // set for the dtypes a matrix can be loaded from
};

const DtypeInfo kDtypes[] = {
    {"F64", 8, ElementType {ElementType::Kind::Float, 8, false}},
    {"F32", 4, ElementType {ElementType::Kind::Float, 4, false}},
    {"F16", 2, ElementType {ElementType::Kind::Float, 2, false}},
    {"BF16", 2, ElementType {ElementType::Kind::BFloat, 2, false}},
    {"I64", 8, std::nullopt},
    {"U64", 8, std::nullopt},
    {"I32", 4, std::nullopt},
    {"U32", 4, std::nullopt},
    {"I16", 2, std::nullopt},
    {"U16", 2, std::nullopt},
    {"I8", 1, std::nullopt},
    {"U8", 1, std::nullopt},
    {"BOOL", 1, std::nullopt},
    {"F8_E5M2", 1, std::nullopt},
    {"F8_E4M3", 1, std::nullopt},
};

const DtypeInfo *findDtype(const QString &name)
{
    for (const DtypeInfo &d : kDtypes) {
        if (name == QLatin1StringView(d.name))
            return &d;
    }
    return nullptr;
}

QString numberText(const QJsonValue &value)
{
    const qint64 integer = value.toInteger(-1);
    return integer >= 0 ? QString::number(integer) : QString::number(value.toDouble(), 'g', 17);
}

// A JSON number that is a whole number in [0, 2^63), or the reason it is not.
std::optional<QString> toSize(const QJsonValue &value, const QString &what, std::int64_t &out)
{
    if (!value.isDouble())
        return u"%1 must be a non-negative integer"_s.arg(what);
    if (value.toDouble() < 0.0)
        return u"%1 %2 is negative"_s.arg(what, numberText(value));
    out = value.toInteger(-1);
    if (out < 0)
        return u"%1 %2 is not an integer that fits a 64-bit size"_s.arg(what, numberText(value));
    return std::nullopt;
}

std::optional<QString> parseEntry(const QString &name, const QJsonValue &value, qint64 dataSize,
                                  SafetensorsTensor &tensor)
{
    const QString prefix = u"tensor '%1'"_s.arg(name);
    if (!value.isObject())
        return prefix + u": its entry is not a JSON object"_s;
    const QJsonObject entry = value.toObject();
    for (const char *key : {"dtype", "shape", "data_offsets"}) {
        if (!entry.contains(QLatin1StringView(key)))
            return u"%1 has no '%2'"_s.arg(prefix, QLatin1StringView(key));
    }
    for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (it.key() != u"dtype"_s && it.key() != u"shape"_s && it.key() != u"data_offsets"_s)
            return u"%1 has an unknown key '%2' (an entry has dtype, shape and data_offsets)"_s.arg(prefix, it.key());
    }

    if (!entry.value(u"dtype"_s).isString())
        return prefix + u": 'dtype' must be a string such as \"F32\""_s;
    tensor.info.name = name;
    tensor.info.dtype = entry.value(u"dtype"_s).toString();
    const DtypeInfo *dtype = findDtype(tensor.info.dtype);
    if (!dtype)
        return u"%1 has an unknown dtype '%2'"_s.arg(prefix, tensor.info.dtype);
    tensor.info.element = dtype->element;

    if (!entry.value(u"shape"_s).isArray())
        return prefix + u": 'shape' must be an array of non-negative integers"_s;
    for (const QJsonValue dim : entry.value(u"shape"_s).toArray()) {
        std::int64_t size = 0;
        if (const auto why = toSize(dim, u"shape dimension"_s, size))
            return prefix + u": "_s + *why;
        tensor.info.shape.push_back(size);
    }
    const QString shape = tensor.info.shapeText(false);

    const QJsonValue offsets = entry.value(u"data_offsets"_s);
    if (!offsets.isArray() || offsets.toArray().size() != 2)
        return prefix + u": 'data_offsets' must be an array [begin, end]"_s;
    std::int64_t begin = 0, end = 0;
    if (const auto why = toSize(offsets.toArray().at(0), u"data offset"_s, begin))
        return prefix + u": "_s + *why;
    if (const auto why = toSize(offsets.toArray().at(1), u"data offset"_s, end))
        return prefix + u": "_s + *why;
    tensor.begin = begin;
    tensor.end = end;
    const QString range = u"[%1, %2]"_s.arg(begin).arg(end);
    if (begin > end)
        return u"%1: data offsets %2 are reversed"_s.arg(prefix, range);
    if (end > dataSize)
        return u"%1: data offsets %2 run past the end of the data section (%3 bytes)"_s.arg(prefix, range)
            .arg(dataSize);

    const auto elements = checkedProduct(tensor.info.shape);
    if (!elements)
        return u"%1: shape %2 has more elements than a 64-bit size can count"_s.arg(prefix, shape);
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(*elements, std::int64_t(dtype->bytes), &bytes))
        return u"%1: shape %2 of %3 needs more bytes than a 64-bit size can count"_s.arg(prefix, shape,
                                                                                         tensor.info.dtype);
    if (bytes != end - begin)
        return u"%1: data offsets %2 hold %3 bytes, but %4 of shape %5 needs %6"_s.arg(prefix, range)
            .arg(end - begin)
            .arg(tensor.info.dtype, shape)
            .arg(bytes);
    return std::nullopt;
}

std::optional<QString> checkMetadata(const QJsonValue &value)
{
    if (!value.isObject())
        return u"'__metadata__' must be an object of strings"_s;
    const QJsonObject metadata = value.toObject();
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
        if (!it.value().isString())
            return u"'__metadata__' must be an object of strings; '%1' is not a string"_s.arg(it.key());
    }
    return std::nullopt;
}

// Sorted by their data, the tensors must tile the data section exactly: no gap, no overlap.
std::optional<QString> checkCoverage(std::vector<SafetensorsTensor> &tensors, qint64 dataSize)
{
    std::stable_sort(tensors.begin(), tensors.end(), [](const SafetensorsTensor &a, const SafetensorsTensor &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    qint64 covered = 0;
    const SafetensorsTensor *previous = nullptr;
    for (const SafetensorsTensor &t : tensors) {
        if (t.begin < covered)
            return u"tensors '%1' [%2, %3] and '%4' [%5, %6] overlap"_s.arg(previous->info.name)
                .arg(previous->begin)
                .arg(previous->end)
                .arg(t.info.name)
                .arg(t.begin)
                .arg(t.end);
        if (t.begin > covered)
            return u"bytes %1..%2 of the data section belong to no tensor (the next, '%3', begins at %2)"_s.arg(covered)
                .arg(t.begin)
                .arg(t.info.name);
        covered = t.end;
        previous = &t;
    }
    if (covered < dataSize)
        return u"%1 trailing bytes after the last tensor's data (the data section has %2 bytes; the tensors cover %3)"_s
            .arg(dataSize - covered)
            .arg(dataSize)
            .arg(covered);
    return std::nullopt;
}

} // namespace

std::optional<QString> parseSafetensorsHeader(QByteArrayView json, qint64 dataSize,
                                              std::vector<SafetensorsTensor> &tensors)
{
    tensors.clear();
    if (!json.isValidUtf8())
        return u"the header is not valid UTF-8"_s;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError)
        return u"the header is not valid JSON: %1 at byte %2"_s.arg(error.errorString()).arg(error.offset);
    if (!document.isObject())
        return u"the header is not a JSON object"_s;
    if (const auto repeated = firstRepeatedTopLevelKey(json))
        return u"the name '%1' appears more than once in the header"_s.arg(*repeated);

    const QJsonObject header = document.object();
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == kMetadataKey) {
            if (const auto why = checkMetadata(it.value()))
                return why;
            continue;
        }
        SafetensorsTensor tensor;
        if (const auto why = parseEntry(it.key(), it.value(), dataSize, tensor))
            return why;
        tensors.push_back(std::move(tensor));
    }
    return checkCoverage(tensors, dataSize);
}

} // namespace posenc
