#include "io/JsonTopLevel.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<QString> jsonTopLevelScalar(const QByteArray &bytes)
{
    // Inside an array Qt's parser takes the value: one element, and nothing else, is the whole file.
    QJsonParseError error;
    const QJsonDocument wrapped = QJsonDocument::fromJson('[' + bytes + ']', &error);
    if (error.error != QJsonParseError::NoError || !wrapped.isArray() || wrapped.array().size() != 1)
        return std::nullopt;
    const QJsonValue value = wrapped.array().at(0);
    switch (value.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double: {
        constexpr qsizetype kShown = 24;
        const QByteArray text = bytes.trimmed();
        return u"the number %1"_s.arg(QString::fromLatin1(text.left(kShown))
                                      + (text.size() > kShown ? u"..."_s : QString()));
    }
    case QJsonValue::String:
        return u"a string"_s;
    default:
        return std::nullopt;
    }
}

} // namespace posenc
