#include "ParamInputs.h"

#include "ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::ParamInputs {

namespace {

// What a dropout setting changes: the mask and the output only.
const QStringList kDropoutKeys = {u"dropout"_s, u"dropout-mode"_s, u"special"_s, u"seq-len"_s, u"eval"_s};

} // namespace

QStringList unreadKeys(Quantity quantity)
{
    const QString embeddings = QString::fromUtf16(kEmbeddingsKey);
    switch (quantity) {
    case Quantity::Pe:
    case Quantity::Error:
    case Quantity::Similarity:
        return kDropoutKeys + QStringList {u"scale"_s, u"init"_s, u"seed"_s, embeddings};
    case Quantity::Embedding:
        return kDropoutKeys + QStringList {u"base"_s, u"layout"_s, u"angles"_s};
    case Quantity::Input:
        return kDropoutKeys;
    case Quantity::Mask:
        return {u"base"_s, u"layout"_s, u"angles"_s, u"scale"_s, u"init"_s, embeddings};
    case Quantity::Output:
        return {};
    }
    return {};
}

QStringList differingKeys(const Params &a, const Params &b)
{
    QStringList keys;
    for (const QString &key : ParamText::valueKeys()) {
        if (ParamText::get(a, key) != ParamText::get(b, key))
            keys.append(key);
    }
    if (a.embeddings != b.embeddings)
        keys.append(QString::fromUtf16(kEmbeddingsKey));
    return keys;
}

bool differ(const Params &a, const Params &b, const QList<Quantity> &quantities)
{
    for (const QString &key : differingKeys(a, b)) {
        for (const Quantity q : quantities) {
            if (!unreadKeys(q).contains(key))
                return true;
        }
    }
    return false;
}

} // namespace posenc::ParamInputs
