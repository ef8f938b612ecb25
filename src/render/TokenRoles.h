#pragma once

#include "QCustomPlot.h"

#include "core/Params.h"

#include <QList>
#include <QString>

#include <cstdint>

namespace posenc {

// The role of a token at a position, as the masked-dropout question puts them: [CLS] opens the
// sequence at 0, [SEP] closes it at seq_len - 1, [MASK] stands at the other special positions
// (--special), and the positions from seq_len to max_len are padding.
struct TokenRole
{
    std::int64_t position = 0;
    QString name; // "[CLS]", "[SEP]", "[MASK]"
};

namespace TokenRoles {

// The named positions, in order of position.
QList<TokenRole> of(const Params &params);
// The padding rows [seq_len, max_len); empty when the sequence fills the table.
std::pair<std::int64_t, std::int64_t> padding(const Params &params);
// "[CLS] at 0, [SEP] at 15, padding 16–1,023 (hatched, seq_len 16)", for a subtitle.
QString text(const Params &params);

} // namespace TokenRoles

// The token roles marked on a heatmap's rows: each role's row outlined and named on the right
// axis, the padding rows hatched (their cells stay readable beneath). Items of the plot, made
// again at each update.
class TokenRoleMarks
{
public:
    explicit TokenRoleMarks(QCPAxisRect *rect);

    // Marks the roles of `params`; `named`: named on the rect's right axis too (else only outlined).
    void update(const Params &params, bool named);

private:
    void clear();

    QCPAxisRect *m_rect;
    QList<QCPAbstractItem *> m_items;
};

} // namespace posenc
