// The 2-D sin-cos table's config reader: transformers' models/vit_mae/modeling_vit_mae.py,
// ViTMAEEmbeddings.initialize_weights fills its frozen position_embeddings with
// get_2d_sincos_pos_embed(hidden_size, int(num_patches ** 0.5), add_cls_token=True), num_patches
// (image_size // patch_size)² (ViTMAEPatchEmbeddings), and forward adds position_embeddings[:, 1:, :]
// to the patches, the cls token its row 0.
#include "Sincos2dConfig.h"

#include "core/sincos2d/Sincos2dParams.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> Sincos2dConfig::layers(ConfigContext &c)
{
    const ModelRow &row = c.model;
    const auto fallback = [&](const QString &key, double value) { return std::int64_t(row.number(key).value_or(value)); };
    const std::int64_t hidden
        = c.integerOr({u"hidden_size"_s}, 1, ConfigBounds::kMaxCount, fallback(u"hidden_size"_s, 768), false);
    const std::int64_t layers = c.integerOr({u"num_hidden_layers"_s}, 1, ConfigBounds::kMaxLayers,
                                            fallback(u"num_hidden_layers"_s, 12), false);
    const std::int64_t image
        = c.integerOr({u"image_size"_s}, 1, ConfigBounds::kMaxCount, fallback(u"image_size"_s, 224), false);
    const std::int64_t patch
        = c.integerOr({u"patch_size"_s}, 1, ConfigBounds::kMaxCount, fallback(u"patch_size"_s, 16), false);
    const std::int64_t side = std::clamp<std::int64_t>(image / patch, 1, Sincos2dParams::kMaxSide);
    ConfigLayer layer;
    layer.layerType = u"input"_s;
    layer.layers = layerRange(layers);
    layer.params = configParams(hidden, side * side + 1);
    layer.params.encoding = Encoding::Sincos2d;
    layer.params.sincos2d.grid = {side, side};
    layer.params.sincos2d.clsToken = true;
    layer.values = {{u"image_size"_s, image},
                    {u"patch_size"_s, patch},
                    {u"grid"_s, u"%1 x %1"_s.arg(side)},
                    {u"cls_token"_s, true},
                    {u"positions"_s, side * side + 1},
                    {u"hidden_size"_s, hidden}};
    return {layer};
}

} // namespace posenc
