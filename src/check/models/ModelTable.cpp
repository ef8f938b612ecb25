#include "ModelTable.h"

#include <QHash>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QStringList wordsOf(const QJsonValue &value)
{
    QStringList words;
    for (const QJsonValue &v : value.toArray())
        words.append(v.toString());
    return words;
}

ModelRow rowOf(const QJsonObject &o)
{
    ModelRow r;
    r.type = o.value(u"type"_s).toString();
    r.configClass = o.value(u"class"_s).toString();
    r.file = o.value(u"file"_s).toString();
    r.cite = o.value(u"cite"_s).toString();
    r.read = o.value(u"read"_s).toString(u"hand"_s);
    r.text = o.value(u"text"_s).toString();
    r.byColumn = wordsOf(o.value(u"by_column"_s));
    r.scheme = o.value(u"scheme"_s).toString(u"rope"_s);
    r.when = o.value(u"when"_s).toArray();
    r.aliases = o.value(u"aliases"_s).toObject();
    r.defaults = o.value(u"defaults"_s).toObject();
    r.ignored = o.value(u"ignored"_s).toObject();
    r.headDim = o.value(u"head_dim"_s).toString(u"key"_s);
    r.headDimByType = o.value(u"head_dim_by_type"_s).toObject();
    r.partial = o.value(u"partial"_s).toString(u"ignored"_s);
    r.layout = o.value(u"layout"_s).toString(u"half"_s);
    r.ownCodeDeinterleaves = o.value(u"own_code_deinterleaves"_s).toBool(false);
    r.halfCosTable = o.value(u"cos_table"_s).toString() == u"half"_s;
    r.place = o.value(u"place"_s).toString(u"prefix"_s);
    r.dicts = o.value(u"dicts"_s).toString(u"one"_s);
    r.theta = o.value(u"theta"_s).toObject();
    r.scalingTo = wordsOf(o.value(u"scaling_to"_s));
    r.defaultRope = o.value(u"default_rope"_s).toObject();
    r.ropeTypes = o.value(u"rope_types"_s).toObject();
    r.ropeTypesAllowed = wordsOf(o.value(u"rope_types_allowed"_s));
    r.indexer = o.value(u"indexer"_s).toObject();
    r.layers = o.value(u"layers"_s).toObject({{u"rule"_s, u"all"_s}});
    r.mixer = o.value(u"mixer"_s).toString(u"linear"_s);
    r.readsLayerTypes = o.value(u"types"_s).toString() != u"ignored"_s;
    r.nope = o.value(u"nope"_s).toObject();
    r.window = o.value(u"window"_s).toObject();
    r.chunk = o.value(u"chunk"_s).toObject();
    r.qscale = o.value(u"qscale"_s).toObject();
    r.softmax = o.value(u"softmax"_s).toString(u"head_dim"_s);
    r.softmaxCite = o.value(u"softmax_cite"_s).toString();
    r.raw = o;
    return r;
}

struct Table
{
    QList<ModelRow> rows;
    QHash<QString, qsizetype> index;
};

const Table &table()
{
    static const Table t = [] {
        Table loaded;
        const QJsonArray rows = QJsonDocument::fromJson(ModelTable::json()).object().value(u"rows"_s).toArray();
        for (const QJsonValue &v : rows) {
            loaded.index.insert(v.toObject().value(u"type"_s).toString(), loaded.rows.size());
            loaded.rows.append(rowOf(v.toObject()));
        }
        return loaded;
    }();
    return t;
}

} // namespace

std::optional<double> ModelRow::number(const QString &key) const
{
    const QJsonValue v = defaults.value(key);
    if (v.isDouble())
        return v.toDouble();
    if (v.isBool())
        return v.toBool() ? 1.0 : 0.0;
    return std::nullopt;
}

QString ModelRow::word(const QString &key) const
{
    return defaults.value(key).toString();
}

QString ModelRow::keyName(const QString &key) const
{
    return aliases.value(key).toString(key);
}

namespace ModelTable {

const QList<ModelRow> &all()
{
    return table().rows;
}

const ModelRow *find(const QString &type)
{
    const auto it = table().index.constFind(type);
    return it == table().index.cend() ? nullptr : &table().rows[*it];
}

QString nearestByName(const QString &type)
{
    static const QRegularExpression part(uR"(_(text|model|vl|moe|\d+)$)"_s);
    QString name = type;
    while (true) {
        const QRegularExpressionMatch m = part.match(name);
        if (!m.hasMatch())
            return {};
        name.chop(m.capturedLength());
        if (const ModelRow *row = find(name)) {
            // A wrapper's name leads to its text model.
            if (!row->text.isEmpty() && find(row->text))
                return row->text;
            return name;
        }
    }
}

ModelRow guess(const QString &type)
{
    const QString nearest = nearestByName(type);
    ModelRow row = *find(nearest.isEmpty() ? u"llama"_s : nearest);
    row.type = type;
    row.read = u"guess"_s;
    row.nearest = nearest;
    // Read from the keys: a model's own code that carries partial_rotary_factor (or rotary_dim)
    // turns that part of the head (mimo_v2_flash's MiMoV2FlashRotaryEmbedding.compute_default_rope_parameters:
    // dim = int(head_dim * partial_rotary_factor)); only Llama's own class ignores it.
    if (nearest.isEmpty())
        row.partial = u"honoured"_s;
    return row;
}

QStringList types()
{
    QStringList list;
    for (const ModelRow &row : all())
        list.append(row.type);
    return list;
}

} // namespace ModelTable

} // namespace posenc
