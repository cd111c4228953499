/**
 * What an operator does to a product after making it (issue 33, 2.1 and 2.7): rename it and
 * change its price, take it off sale and put it on again, delete it while no order refers to
 * it — and a size-limit refusal that says the size in units people read and where to change it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';
import { GiB, MiB, shopFixtures } from '../helpers/shop-fixtures.js';

let t: TestApp;
let shop: ReturnType<typeof shopFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  shop = shopFixtures(t);
});
afterAll(() => t.close());

const onSale = async (productId: number) => {
  const customer = await signUpCustomer(t);
  const listed = await t.post('/api/admin/product/list', { page_size: 100 }, { token: customer.token });
  return listed.data.list.some((p: { id: number }) => p.id === productId);
};

describe('editing a product', () => {
  it('When an operator renames a storage product, changes its price and takes it off sale, then customers no longer see it until it is put on sale again', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const operator = await shop.operator();
    const renamed = await t.post('/api/manage/product/update', { id: product.id, name_en: 'Storage 1 GiB', name_zh: '存储 1 GiB', price: 9900 }, { token: operator });
    expect(renamed).toMatchObject({ code: 0, data: { name_en: 'Storage 1 GiB', name_zh: '存储 1 GiB', price: 9900, kind: 'storage', points_granted: null } });
    expect(await onSale(product.id)).toBe(true);
    expect(await t.post('/api/manage/product/update', { id: product.id, visible: 0 }, { token: operator })).toMatchObject({ code: 0, data: { visible: 0 } });
    expect(await onSale(product.id)).toBe(false);
    expect(await t.post('/api/manage/product/update', { id: product.id, visible: 1 }, { token: operator })).toMatchObject({ code: 0, data: { visible: 1 } });
    expect(await onSale(product.id)).toBe(true);
  });

  it('When a storage product is given points or a points product a size, then the field is refused by name', async () => {
    const operator = await shop.operator();
    const storage = await shop.storageProduct();
    const points = await shop.pointsProduct();
    expect(await t.post('/api/manage/product/update', { id: storage.id, points_granted: 1 }, { token: operator })).toMatchObject({ code: 40000, errors: { points_granted: { message: 'shop.not_for_storage' } } });
    expect(await t.post('/api/manage/product/update', { id: points.id, storage_size: GiB }, { token: operator })).toMatchObject({ code: 40000, errors: { storage_size: { message: 'shop.not_for_points' } } });
    // A storage block that never expires: the period emptied.
    expect(await t.post('/api/manage/product/update', { id: storage.id, period_months: null }, { token: operator })).toMatchObject({ code: 0, data: { period_months: null } });
  });
});

describe('deleting a product', () => {
  it('When no order refers to a product, then it is deleted, and the promotions that named it no longer do', async () => {
    const operator = await shop.operator();
    const product = await shop.storageProduct();
    const other = await shop.storageProduct();
    const promotion = await shop.promotion([product.id, other.id]);
    expect(await t.post('/api/manage/product/delete', { id: product.id }, { token: operator })).toMatchObject({ code: 0, data: { id: product.id } });
    expect(await t.get('/api/manage/product/get', { id: product.id }, { token: operator })).toMatchObject({ code: 40400 });
    expect((await t.get('/api/manage/activity/get', { id: promotion.id }, { token: operator })).data.product_ids).toEqual([other.id]);
  });

  it('When an order refers to a product, then deleting it is refused with a message that offers taking it off sale, and nothing changes', async () => {
    const operator = await shop.operator();
    const product = await shop.storageProduct({ name_en: 'Storage 1 GB', price: 500 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 500);
    await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    const refused = await t.post('/api/manage/product/delete', { id: product.id }, { token: operator });
    expect(refused).toMatchObject({ code: 40900, message: 'shop.product_has_orders', params: { orders: 1, smart_count: 1, name_en: 'Storage 1 GB' } });
    expect(messageText('en', refused.message, refused.params)).toBe('1 order refers to “Storage 1 GB”, so it cannot be deleted: the order names it. Take it off sale instead: customers no longer see it, and the order keeps it.');
    expect(messageText('zh', refused.message, refused.params)).toContain('请改为下架');
    expect(await t.get('/api/manage/product/get', { id: product.id }, { token: operator })).toMatchObject({ code: 0, data: { visible: 1 } });
  });

  it('When a support operator (not billing) tries to delete a product, then it is forbidden', async () => {
    const product = await shop.storageProduct();
    const support = await operatorWithRole(t, 'support');
    expect(await t.post('/api/manage/product/delete', { id: product.id }, { token: support.token })).toMatchObject({ code: 40300 });
  });
});

describe('size limits read in units people use, and say where to change them', () => {
  it('When a mailbox quota is above the largest mailbox quota, then the refusal says 1 GiB (not 1073741824 bytes) and where it is raised, in both languages', async () => {
    const mail = mailFixtures(t);
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, 10 * GiB);
    const domain = await mail.activeDomain(customer);
    const refused = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'big', password: 'mailbox-pass-1', quota: 2 * GiB }, { token: customer.token });
    const error = refused.errors!.quota;
    expect(error).toMatchObject({ message: 'validation.quota_above_storage_max', params: { max: GiB, max_text: '1 GiB' } });
    const en = messageText('en', error.message, error.params);
    expect(en).toContain('At most 1 GiB per mailbox');
    expect(en).toContain('Profile › Largest quota of one mailbox');
    expect(en).not.toMatch(/\d{5,}|bytes/);
    const zh = messageText('zh', error.message, error.params);
    expect(zh).toContain('每个邮箱最多 1 GiB');
    expect(zh).toContain('个人资料 › 单个邮箱最大容量');
  });

  it('When a domain limits its mailboxes, then the refusal says the limit readably and that operators change it on the domain', async () => {
    const mail = mailFixtures(t);
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, 10 * GiB);
    const domain = await mail.activeDomain(customer);
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_quota: 512 * MiB }, { token: await shop.operator() })).code).toBe(0);
    const refused = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'big', password: 'mailbox-pass-1', quota: GiB }, { token: customer.token });
    const error = refused.errors!.quota;
    expect(error).toMatchObject({ message: 'validation.quota_above_domain_max', params: { max_text: '512 MiB' } });
    expect(messageText('en', error.message, error.params)).toBe('At most 512 MiB per mailbox in this domain: the domain\'s max. mailbox quota, which operators change on the domain\'s page.');
  });

  it('When a size is out of its field\'s bounds (a quota, a block, a product), then the refusal says the bound in MiB or TiB, in both languages', async () => {
    const operator = await shop.operator();
    const customer = await signUpCustomer(t);
    const small = await t.post('/api/manage/storage/create', { owner_id: customer.id, size: 1000 }, { token: operator });
    expect(small).toMatchObject({ code: 40000, errors: { size: { message: 'validation.size_too_small', params: { min: MiB, min_text: '1 MiB' } } } });
    const big = await t.post('/api/manage/user/update', { id: customer.id, storage_max: 2 * 1024 ** 4 }, { token: operator });
    const error = big.errors!.storage_max;
    expect(error).toMatchObject({ message: 'validation.size_too_big', params: { max_text: '1 TiB' } });
    expect(messageText('en', error.message, error.params)).toBe('At most 1 TiB');
    expect(messageText('zh', error.message, error.params)).toBe('不能大于 1 TiB');
    const product = await t.post('/api/manage/product/create', { kind: 'storage', name_zh: '小', name_en: 'Small', price: 100, storage_size: 1024 }, { token: operator });
    expect(product).toMatchObject({ code: 40000, errors: { storage_size: { message: 'validation.size_too_small', params: { min_text: '1 MiB' } } } });
  });

  it('When an operator lowers capacity below what mailboxes use, then the refusal reads in MiB', async () => {
    const mail = mailFixtures(t);
    const customer = await signUpCustomer(t);
    const operator = await shop.operator();
    const block = await mail.grant(customer.id, 100 * MiB);
    const domain = await mail.activeDomain(customer);
    expect((await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'm', password: 'mailbox-pass-1', quota: 90 * MiB }, { token: customer.token })).code).toBe(0);
    const refused = await t.post('/api/manage/storage/update', { id: block.id, size: 50 * MiB }, { token: operator });
    expect(refused).toMatchObject({ code: 40900, message: 'error.capacity_in_use', params: { allocated_text: '90 MiB', capacity_text: '50 MiB' } });
    expect(messageText('en', refused.message, refused.params)).toContain('The mailboxes need 90 MiB of quota; the capacity would fall to 50 MiB.');
  });
});
