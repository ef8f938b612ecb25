// The figures every family shares, one line each, in the order the window and --help list them;
// each family's own follow, from its manifest (core/FamilyList.h), in the families' order. Adding
// a figure is its descriptor, its builder, its tests and one line here or in its family's manifest
// (docs/ARCHITECTURE.md, "Adding a figure"). No include guard: FigureRegistry.cpp reads this list
// twice, with POSENC_FIGURE(Name) defined to declare and then to call make<Name>Figure(), and the
// families' with POSENC_FAMILY_FIGURE defined alike.
POSENC_FIGURE(Heatmap)
POSENC_FIGURE(Magnitudes)
POSENC_FIGURE(Dropout)
POSENC_FIGURE(DropoutCompare)
POSENC_FIGURE(DropoutAnatomy)
POSENC_FIGURE(Families)
POSENC_FIGURE(LayerStack)
POSENC_FIGURE(QueryScale)
POSENC_FIGURE(HeadMap)
POSENC_FIGURE(PositionIds)
POSENC_FIGURE(PositionEffect)
POSENC_FIGURE(DocumentDistance)
