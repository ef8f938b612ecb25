// The quantities every family shares, one line each, in the order of `posenc table --help` and of
// the heatmap's chooser; each family's own follow, from its manifest (FamilyList.h), in the
// families' order. Adding a quantity is its row (a make<Name>Quantity() function in its family's
// folder, or beside ModelQuantities.cpp for a shared one), its tests and one line here or in its
// family's manifest (docs/ARCHITECTURE.md, "Adding a quantity"). No include guard: Quantity.h and
// Quantity.cpp read this list with POSENC_QUANTITY(Name) defined to name the enum's values, to
// declare the rows' functions and to call them, then the families' with POSENC_FAMILY_QUANTITY
// defined alike.
POSENC_QUANTITY(Pe)
POSENC_QUANTITY(Embedding)
POSENC_QUANTITY(Input)
POSENC_QUANTITY(Output)
POSENC_QUANTITY(Mask)
POSENC_QUANTITY(Similarity)
POSENC_QUANTITY(PositionIds)
POSENC_QUANTITY(PositionEffect)
POSENC_QUANTITY(DocumentDistance)
