from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.api.selectors import item_detail, items_of
from annotation.api.serializers import ItemDetailSerializer, ItemQuerySerializer, ItemSerializer
from annotation.api.views.base import NOT_FOUND, ProjectApi, ProjectListApi, validated
from annotation.models import Item
from annotation.selectors.items import ItemFilters


class ItemListApi(ProjectListApi):
    serializer_class = ItemSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Item.objects.none()
        query = validated(ItemQuerySerializer, self.request.query_params)
        filters = ItemFilters(
            q=query.get("q", "").strip(),
            inside_words=query.get("inside", False),
            author=query.get("author", "").strip(),
            category=query.get("category"),
            language=query.get("language", ""),
            source=query.get("source", ""),
        )
        return items_of(membership=self.membership, status=query.get("status"), filters=filters)

    @extend_schema(
        operation_id="items_list",
        summary="Items I may see: my own as an annotator, all of the project's as reviewer or admin.",
        parameters=[ItemQuerySerializer],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ItemDetailApi(ProjectApi):
    @extend_schema(
        operation_id="items_retrieve",
        summary="An item with its current payload, every version and every review.",
        responses={200: ItemDetailSerializer, **NOT_FOUND},
    )
    def get(self, request, slug, item_id):
        return Response(ItemDetailSerializer(item_detail(membership=self.membership, item_id=item_id)).data)
